//! Call names as the tool list reads them: a content type glued to a Harmony name, a Muse
//! name doubled into its namespace, and a GLM name run into its first key.

use inband::Span;

use super::Assembler;
use crate::tools::Tool;

impl Assembler {
    /// The tool a call names. The scanner reports a name as the model wrote it; only the
    /// tool list tells `shelljson` (Harmony's `to=functions.shell` with its content type
    /// `json` glued on, corpus 046) from a tool really called that.
    /// Likewise only the tool list tells Muse's `get_weather.get_weather` (its template
    /// offers a bare tool as the namespace `get_weather.*`, and the model names the tool
    /// in it; vLLM's muse parser) from a tool of that name: the doubled name of a declared
    /// bare tool is renamed to it, with `doubled_namespace`.
    pub(super) fn declared_name(&mut self, span: Span, name: &[u8]) -> Vec<u8> {
        let Some(tools) = &self.tools else {
            return name.to_vec();
        };
        let declared = |n: &[u8]| std::str::from_utf8(n).is_ok_and(|n| tools.contains(n));
        if declared(name) {
            return name.to_vec();
        }
        let half = name.len() / 2;
        if name.len() % 2 == 1 && name[half] == b'.' && name[..half] == name[half + 1..] {
            let head = &name[..half];
            if declared(head) {
                self.record(
                    span,
                    "doubled_namespace",
                    "the tool name was its namespace and itself (`NAME.NAME`); renamed",
                );
                return head.to_vec();
            }
        }
        if let Some(stem) = name.strip_suffix(b"json") {
            if declared(stem) {
                self.record(
                    span,
                    "glued_content_type",
                    "the tool name had the content type `json` glued to it; renamed",
                );
                return stem.to_vec();
            }
        }
        name.to_vec()
    }

    /// The name of a call, and the first key split off it when the scanner said the name
    /// ran into that key (`glued`).
    pub(super) fn call_name(
        &mut self,
        span: Span,
        glued: bool,
        name: &[u8],
    ) -> (Vec<u8>, Option<Vec<u8>>) {
        if glued {
            self.split_glued(span, name)
        } else {
            (self.declared_name(span, name), None)
        }
    }

    /// A GLM name that ran into its first key (`run_shellcommand</arg_key>`, corpus 018):
    /// a declared tool name it begins with is the name and the rest the key. The longest
    /// such name whose tool declares the rest as a parameter wins; failing that, the
    /// longest one, unless the glued name is itself a declared tool (then the key is
    /// missing, not glued). Without a split the name stays whole and the call will be text
    /// (docs/dialects.md rule 9).
    fn split_glued(&mut self, span: Span, glued: &[u8]) -> (Vec<u8>, Option<Vec<u8>>) {
        let split = self.tools.as_ref().and_then(|tools| {
            // One lookup per cut point of the name (at most `MAX_NAME` bytes), not a pass
            // over the tools: the cost does not grow with the tool list.
            let prefixes = || {
                (1..glued.len())
                    .filter_map(|cut| std::str::from_utf8(&glued[..cut]).ok())
                    .filter_map(|prefix| tools.get(prefix))
            };
            let declares_rest = |tool: &&Tool| {
                std::str::from_utf8(&glued[tool.name.len()..])
                    .is_ok_and(|key| tool.parameter_schema(key).is_some())
            };
            let whole_declared = std::str::from_utf8(glued).is_ok_and(|n| tools.contains(n));
            prefixes()
                .filter(declares_rest)
                .max_by_key(|tool| tool.name.len())
                .or_else(|| {
                    (!whole_declared)
                        .then(|| prefixes().max_by_key(|tool| tool.name.len()))
                        .flatten()
                })
                .map(|tool| tool.name.as_bytes().to_vec())
        });
        match split {
            Some(name) => {
                self.record(
                    span,
                    "split_glued_name",
                    "the call name ran into its first key; split at the declared tool name",
                );
                let key = glued[name.len()..].to_vec();
                (name, Some(key))
            }
            None => (glued.to_vec(), None),
        }
    }
}
