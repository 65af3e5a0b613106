//! Every citation of the project's documents resolves, and no citation of the spec files
//! that do not ship remains.
//!
//! The walk covers the repository's source and Markdown files (`target/`, hidden
//! directories, `fuzz/corpus` and `proptest-regressions` skipped) and checks:
//!
//! - (a) each `docs/NAME.md` citation: the file exists; `docs/dialects.md rule N` names one
//!   of its numbered rules and `docs/dialects.md §name` one of its headings;
//!   `docs/seed.md §x.y` and `docs/seed.md BN` one of its sections and bugs;
//!   `docs/practices.md N` one of its practices; and every Markdown link into `docs/`
//!   (`docs/NAME.md#anchor`, and inside `docs/` `NAME.md#anchor`) names a heading;
//! - (b) outside `docs/`, no citation of the old spec files (the dialect spec, the model
//!   formats note, the seed system spec, the style notes) is left: they did not ship, so a
//!   citation names the `docs/` document that says the same in this project's words. The
//!   directories in [`PENDING`] are exempt from (b) while their citations are rewritten.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Directories (relative to the repository root) exempt from check (b) while their
/// citations are being rewritten (none now).
const PENDING: &[&str] = &[];

/// Documents being written elsewhere: a citation of one of these resolves while the file is
/// absent from this tree (none now).
const PENDING_DOCS: &[&str] = &[];

/// `docs/` paths of other repositories that the code cites as sources (openai/harmony's
/// `docs/format.md`, the Harmony format): not this repository's documents.
const FOREIGN: &[&str] = &["format.md"];

/// This file: it spells citations to test the checks, so the walk leaves it out.
const THIS_FILE: &str = "tables/tests/citations.rs";

/// File extensions the walk reads.
const EXTENSIONS: &[&str] = &[
    "rs", "md", "toml", "py", "pyi", "c", "h", "cc", "cpp", "hpp", "sh",
];

/// The old citation forms of check (b), spelled in pieces so that this file does not
/// match itself.
/// Compared case-insensitively.
const OLD_FORMS: &[&str] = &[
    concat!("model", "-formats"),
    concat!("seed", "-system"),
    concat!("seed", " §"),
    concat!("; formats", " §"),
    concat!("style", " practice"),
    concat!("style", ".md"),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tables/ has a parent")
        .to_path_buf()
}

/// Every file of the walk, as (path relative to the root with `/` separators, text).
fn source_files(root: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("readable directory entry").path();
            let rel = relative(root, &path);
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                let skip = name.starts_with('.')
                    || matches!(name, "target" | "proptest-regressions" | "node_modules")
                    || rel == "fuzz/corpus";
                if !skip {
                    stack.push(path);
                }
                continue;
            }
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            if EXTENSIONS.contains(&ext) {
                if let Ok(text) = fs::read_to_string(&path) {
                    out.push((rel, text));
                }
            }
        }
    }
    out.sort();
    out
}

fn relative(root: &Path, path: &Path) -> String {
    let rel = path
        .strip_prefix(root)
        .expect("walked path is under the root");
    rel.to_string_lossy().replace('\\', "/")
}

/// A heading's anchor as GitHub makes it: lower case, punctuation other than `-` and `_`
/// dropped, spaces as `-`.
fn slug(heading: &str) -> String {
    let mut out = String::new();
    for c in heading.trim().chars() {
        if c.is_alphanumeric() || c == '-' || c == '_' {
            out.extend(c.to_lowercase());
        } else if c == ' ' {
            out.push('-');
        }
    }
    out
}

/// What a document offers to cite.
#[derive(Debug, Default, PartialEq)]
struct Targets {
    /// Anchors of its headings.
    anchors: BTreeSet<String>,
    /// `docs/dialects.md`'s numbered rules.
    rules: BTreeSet<u32>,
    /// `docs/seed.md`'s sections (`4.5`) and bugs (`B8`), and `docs/practices.md`'s numbers.
    ids: BTreeSet<String>,
}

/// The targets of one document's text.
fn targets(text: &str) -> Targets {
    let mut t = Targets::default();
    let mut in_rules = false;
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix('#') {
            let heading = heading.trim_start_matches('#').trim();
            t.anchors.insert(slug(heading));
            in_rules = heading == "Rules";
            // `## §4.5 The projector`, `## 14. Benchmarks …`
            let first = heading.split_whitespace().next().unwrap_or("");
            let id = first.trim_start_matches('§').trim_end_matches('.');
            if !id.is_empty() && id.chars().all(|c| c.is_ascii_digit() || c == '.') {
                t.ids.insert(id.to_string());
            }
        } else if let Some(item) = line.strip_prefix("- **B") {
            let digits: String = item.chars().take_while(char::is_ascii_digit).collect();
            if !digits.is_empty() && item[digits.len()..].starts_with("**") {
                t.ids.insert(format!("B{digits}"));
            }
        } else if in_rules {
            let digits: String = line.chars().take_while(char::is_ascii_digit).collect();
            if !digits.is_empty() && line[digits.len()..].starts_with(". **") {
                t.rules.insert(digits.parse().expect("digits"));
            }
        }
    }
    t
}

/// One reference made by a citation: what kind, and its value.
#[derive(Debug, PartialEq, Eq)]
enum Ref {
    Rule(u32),
    Section(String),
    Id(String),
}

/// Skips spaces, and a line break with the next comment line's marker (`//`, `///`, `//!`,
/// `#`, `*`): a citation may wrap.
fn skip_gap(s: &str) -> &str {
    let s = s.trim_start_matches([' ', '\t']);
    match s.strip_prefix('\n') {
        Some(rest) => {
            let rest = rest.trim_start_matches([' ', '\t']);
            let rest = rest.trim_start_matches(['/', '!', '#', '*']);
            rest.trim_start_matches([' ', '\t'])
        }
        None => s,
    }
}

/// Skips one list separator (`, `, ` and `, `–`, `-`, `/`, ` to `), or returns `None`.
fn skip_separator(s: &str) -> Option<&str> {
    let t = s.trim_start();
    for sep in [",", "–", "/", "and ", "to "] {
        if let Some(rest) = t.strip_prefix(sep) {
            return Some(rest.trim_start());
        }
    }
    t.strip_prefix('-')
        .filter(|r| r.starts_with('§'))
        .map(str::trim_start)
}

fn take_while(s: &str, f: impl Fn(char) -> bool) -> &str {
    let end = s.find(|c: char| !f(c)).unwrap_or(s.len());
    &s[..end]
}

/// The references a citation of `doc` makes in `after`, the text right after `docs/DOC`:
/// `rule 4`, `rules 2, 4 and 5`, `§gemma, §kimi`, `§4.5`, `B1/B3`, `14`.
fn references(doc: &str, after: &str) -> Vec<Ref> {
    let mut refs = Vec::new();
    let mut s = skip_gap(after);
    let mut rules = false;
    if doc == "dialects.md" {
        if let Some(rest) = s.strip_prefix("rules ").or_else(|| s.strip_prefix("rule ")) {
            s = rest;
            rules = true;
        }
    }
    loop {
        if let Some(rest) = s.strip_prefix("rule ") {
            rules = true;
            s = rest;
        }
        let item = if let Some(rest) = s.strip_prefix('§') {
            let word = take_while(rest, |c| c.is_alphanumeric() || c == '-' || c == '.');
            let word = word
                .strip_suffix(".x")
                .unwrap_or(word)
                .trim_end_matches(['.', '-']);
            s = &rest[word.len()..];
            match doc {
                "dialects.md" => Ref::Section(word.to_string()),
                _ => Ref::Id(word.to_string()),
            }
        } else if doc == "seed.md" && s.starts_with('B') {
            let digits = take_while(&s[1..], |c| c.is_ascii_digit());
            if digits.is_empty() {
                break;
            }
            s = &s[1 + digits.len()..];
            Ref::Id(format!("B{digits}"))
        } else if (rules || doc == "practices.md") && s.starts_with(|c: char| c.is_ascii_digit()) {
            let digits = take_while(s, |c| c.is_ascii_digit());
            s = &s[digits.len()..];
            match doc {
                "practices.md" => Ref::Id(digits.to_string()),
                _ => Ref::Rule(digits.parse().expect("digits")),
            }
        } else {
            break;
        };
        refs.push(item);
        match skip_separator(s) {
            Some(rest) => s = rest,
            None => break,
        }
    }
    refs
}

/// Why one reference does not resolve, if it does not.
fn check_ref(doc: &str, t: &Targets, r: &Ref) -> Option<String> {
    let ok = match r {
        Ref::Rule(n) => t.rules.contains(n),
        Ref::Section(name) => t.anchors.contains(name),
        Ref::Id(id) => t.ids.contains(id),
    };
    (!ok).then(|| format!("docs/{doc}: no {r:?}"))
}

/// The problems of every `docs/NAME.md` citation and link in `text`, one string each.
/// `in_docs` says `text` is a document of `docs/`, whose links are relative.
fn check_citations(
    text: &str,
    in_docs: bool,
    docs: &dyn Fn(&str) -> Option<Targets>,
) -> Vec<String> {
    let mut problems = Vec::new();
    let mut cited: Vec<(usize, &str, &str)> = Vec::new();
    for (at, _) in text.match_indices("docs/") {
        let rest = &text[at + "docs/".len()..];
        let name = take_while(rest, |c| {
            c.is_alphanumeric() || c == '_' || c == '-' || c == '.'
        });
        let name = name.trim_end_matches('.');
        if name.ends_with(".md") {
            cited.push((at, name, &rest[name.len()..]));
        }
    }
    if in_docs {
        for (at, _) in text.match_indices("](") {
            let rest = &text[at + 2..];
            let name = take_while(rest, |c| {
                c.is_alphanumeric() || c == '_' || c == '-' || c == '.'
            });
            if name.ends_with(".md") && !name.contains('/') {
                cited.push((at, name, &rest[name.len()..]));
            }
        }
    }
    cited.sort_by_key(|&(at, _, _)| at);
    for (at, name, after) in cited {
        let line = text[..at].matches('\n').count() + 1;
        let Some(t) = docs(name) else {
            if !PENDING_DOCS.contains(&name) && !FOREIGN.contains(&name) {
                problems.push(format!("{line}: docs/{name} does not exist"));
            }
            continue;
        };
        if let Some(anchor) = after.strip_prefix('#') {
            let anchor = take_while(anchor, |c| c.is_alphanumeric() || c == '-' || c == '_');
            if !t.anchors.contains(anchor) {
                problems.push(format!("{line}: docs/{name}: no heading #{anchor}"));
            }
            continue;
        }
        for r in references(name, after) {
            problems.extend(check_ref(name, &t, &r).map(|p| format!("{line}: {p}")));
        }
    }
    problems
}

/// The old citations left in `text`, as `LINE: TEXT` strings.
fn old_citations(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (no, line) in text.lines().enumerate() {
        let lower = line.to_lowercase();
        let mut old = OLD_FORMS.iter().any(|form| lower.contains(form))
            || line.match_indices("seed B").any(|(at, _)| {
                line[at + "seed B".len()..].starts_with(|c: char| c.is_ascii_digit())
            });
        old |= line
            .match_indices("dialects.md")
            .any(|(at, _)| !line[..at].ends_with("docs/") && !line[..at].ends_with('['));
        if old {
            found.push(format!("{}: {}", no + 1, line.trim()));
        }
    }
    found
}

#[test]
fn every_docs_citation_resolves() {
    let root = root();
    let docs = |name: &str| {
        fs::read_to_string(root.join("docs").join(name))
            .ok()
            .map(|t| targets(&t))
    };
    let mut problems = Vec::new();
    for (path, text) in source_files(&root) {
        if path == THIS_FILE {
            continue;
        }
        let in_docs = path.starts_with("docs/");
        for p in check_citations(&text, in_docs, &docs) {
            problems.push(format!("{path}:{p}"));
        }
    }
    assert!(
        problems.is_empty(),
        "unresolved citations:\n{}",
        problems.join("\n")
    );
}

#[test]
fn no_old_citation_remains() {
    let root = root();
    let mut problems = Vec::new();
    for (path, text) in source_files(&root) {
        let pending = PENDING
            .iter()
            .any(|dir| path.starts_with(&format!("{dir}/")));
        if path.starts_with("docs/") || pending || path == THIS_FILE {
            continue;
        }
        for line in old_citations(&text) {
            problems.push(format!("{path}:{line}"));
        }
    }
    assert!(
        problems.is_empty(),
        "citations of documents that do not ship (cite docs/dialects.md, docs/seed.md or docs/practices.md instead):\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_documents_offer_what_the_code_cites() {
    let root = root();
    let read = |name: &str| targets(&fs::read_to_string(root.join("docs").join(name)).expect(name));
    let dialects = read("dialects.md");
    assert_eq!(dialects.rules, (1..=14).collect::<BTreeSet<u32>>());
    for name in [
        "hermes",
        "qwen3",
        "harmony",
        "kimi",
        "deepseek",
        "xml",
        "anthropic",
        "minimax",
        "qwen3-coder",
        "seed-oss",
        "dots",
        "functiongemma",
        "minicpm5",
        "kimi-k3",
        "muse",
        "mimo",
        "step3",
        "gigachat35",
        "minimax-m3",
        "jamba",
        "granite",
        "internlm",
        "mistral",
        "pythonic",
        "lfm2",
        "phi4-mini",
        "hunyuan-a13b",
        "cohere",
        "apertus",
        "ernie45",
        "granite-20b-fc",
        "gigachat3",
        "plamo3",
        "longcat",
        "glm",
        "hunyuan",
        "iquest-q1",
        "k2-horizon",
        "deepseek-v41",
        "gemma",
        "gemini",
        "families",
    ] {
        assert!(
            dialects.anchors.contains(name),
            "dialects.md has no section {name}"
        );
    }
    let seed = read("seed.md");
    let bugs = seed.ids.iter().filter(|id| id.starts_with('B')).count();
    assert_eq!(bugs, 24);
    let practices = read("practices.md");
    assert_eq!(
        practices.ids,
        (1..=18).map(|n| n.to_string()).collect::<BTreeSet<_>>()
    );
}

#[test]
fn references_are_parsed_as_written() {
    let rule = |n| Ref::Rule(n);
    assert_eq!(references("dialects.md", " rule 13)."), vec![rule(13)]);
    assert_eq!(
        references("dialects.md", " rules 2, 4 and 5)"),
        vec![rule(2), rule(4), rule(5)]
    );
    assert_eq!(
        references("dialects.md", " rules 1–3; seed"),
        vec![rule(1), rule(3)]
    );
    assert_eq!(
        references("dialects.md", " §deepseek, §anthropic;"),
        vec![
            Ref::Section("deepseek".into()),
            Ref::Section("anthropic".into())
        ]
    );
    assert_eq!(
        references("dialects.md", " §gemini, rule 5)"),
        vec![Ref::Section("gemini".into()), rule(5)]
    );
    assert_eq!(references("dialects.md", "\n/// rule 9)"), vec![rule(9)]);
    assert_eq!(references("dialects.md", ", pinned"), vec![]);
    assert_eq!(
        references("seed.md", " §2.4–§2.6, model"),
        vec![Ref::Id("2.4".into()), Ref::Id("2.6".into())]
    );
    assert_eq!(
        references("seed.md", " B1/B3: a body"),
        vec![Ref::Id("B1".into()), Ref::Id("B3".into())]
    );
    assert_eq!(
        references("seed.md", " §2.10.1."),
        vec![Ref::Id("2.10.1".into())]
    );
    assert_eq!(
        references("practices.md", " 14). The"),
        vec![Ref::Id("14".into())]
    );
}

#[test]
fn unresolved_and_old_citations_are_found() {
    let doc = "## Rules\n\n1. **One.**\n\n## glm\n\n## §4.5 The projector\n\n- **B8** A bug.\n";
    let docs = |name: &str| (name == "dialects.md" || name == "seed.md").then(|| targets(doc));
    let text = "// docs/dialects.md rule 1, docs/dialects.md rule 2, docs/dialects.md §glm,\n\
                // docs/dialects.md §kimi, docs/seed.md §4.5, docs/seed.md B9, docs/nope.md,\n\
                // [glm](docs/dialects.md#glm) [x](docs/dialects.md#x) docs/DESIGN.md";
    assert_eq!(
        check_citations(text, false, &docs),
        [
            "1: docs/dialects.md: no Rule(2)",
            "2: docs/dialects.md: no Section(\"kimi\")",
            "2: docs/seed.md: no Id(\"B9\")",
            "2: docs/nope.md does not exist",
            "3: docs/dialects.md: no heading #x",
            "3: docs/DESIGN.md does not exist",
        ]
    );
    let old = concat!(
        "// see dialects",
        ".md rule 4\n// ok: docs/dialects.md rule 4\n// seed",
        " B8\n/// Model",
        "-formats §6: GLM\n"
    );
    assert_eq!(
        old_citations(old),
        [
            "1: // see dialects.md rule 4",
            "3: // seed B8",
            "4: /// Model-formats §6: GLM"
        ]
    );
}
