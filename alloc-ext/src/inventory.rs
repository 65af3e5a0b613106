//! The human-readable tool inventory (docs/seed.md §1.9): per tool a `# Tool: NAME`
//! heading, its description with its own headings pushed one level down, a TypeScript-like
//! signature of its parameters, and its examples in the dialect the model id selects.

use serde_json::{json, Map, Value};

use crate::examples::tool_examples;
use crate::render::RenderError;
use crate::select;
use crate::tools::ToolSet;

/// How deep `$ref`s and nested schemas are followed before a type is written as its
/// reference name or `unknown`: enough for real tool schemas, finite for recursive ones.
const MAX_DEPTH: usize = 8;

/// The inventory of `tools`, tools separated by a blank line; `""` for no tools. Each
/// tool is:
///
/// ```text
/// # Tool: NAME
/// DESCRIPTION (omitted when empty; headings demoted, see demote_headings)
///
/// Parameters: SIGNATURE
///
/// <examples>…</examples> (only when the tool has examples)
/// ```
///
/// Examples are written in the dialect [`select::for_model`] gives for `model_id`
/// (the model that will read them, whatever dialect it is prompted in), by
/// [`tool_examples`].
///
/// # Errors
/// A tool whose name the dialect cannot write in a call, as
/// [`tool_prompt`](crate::prompt::tool_prompt) says (`index` is the tool's position); an
/// example call the dialect cannot write, as [`tool_examples`] says.
pub fn tool_inventory(tools: &ToolSet, model_id: &str) -> Result<String, RenderError> {
    let dialect = select::for_model(model_id);
    let renderer = crate::render::Renderer::new(dialect);
    let entries: Vec<String> = tools
        .iter()
        .enumerate()
        .map(|(index, tool)| {
            renderer
                .check_name(&tool.name)
                .map_err(|e| e.at(index, &tool.name))?;
            let mut entry = format!("# Tool: {}\n", tool.name);
            if let Some(description) = tool.description.as_deref().filter(|d| !d.is_empty()) {
                entry.push_str(&demote_headings(description));
                entry.push('\n');
            }
            entry.push_str("\nParameters: ");
            let none = json!({"type": "object", "properties": {}});
            entry.push_str(&signature(tool.parameters.as_ref().unwrap_or(&none)));
            let examples = tool_examples(tool, dialect, None)?;
            if !examples.is_empty() {
                entry.push_str("\n\n");
                entry.push_str(&examples);
            }
            Ok(entry)
        })
        .collect::<Result<_, RenderError>>()?;
    Ok(entries.join("\n\n"))
}

/// A TypeScript-like type for a JSON Schema: `{ key: T; optional?: T; }` objects (one
/// member per line, a property's description as a `/** … */` line above it), `T[]`
/// arrays, `"a" | "b"` enums, `A | B` for `anyOf`/`oneOf` and type lists, `A & B` for
/// `allOf`, `Record<string, T>` for maps, and `$ref`s into the schema's own `$defs` or
/// `definitions` followed (a recursive one is written as its name).
///
/// # Panics
/// Never.
pub fn signature(schema: &Value) -> String {
    Signature { root: schema }.ty(schema, 0, 0)
}

struct Signature<'a> {
    root: &'a Value,
}

impl Signature<'_> {
    fn ty(&self, schema: &Value, depth: usize, indent: usize) -> String {
        let Value::Object(schema) = schema else {
            return match schema {
                Value::Bool(false) => "never".into(),
                _ => "unknown".into(),
            };
        };
        if depth > MAX_DEPTH {
            return "unknown".into();
        }
        let mut union = self.union(schema, depth, indent);
        if schema.get("nullable") == Some(&Value::Bool(true)) && !union.iter().any(|t| t == "null")
        {
            union.push("null".into());
        }
        if union.is_empty() {
            return "unknown".into();
        }
        union.join(" | ")
    }

    /// The members of the type's union, without repeats.
    fn union(&self, schema: &Map<String, Value>, depth: usize, indent: usize) -> Vec<String> {
        let mut members: Vec<String> = Vec::new();
        if let Some(Value::String(reference)) = schema.get("$ref") {
            let name = reference.rsplit('/').next().unwrap_or(reference);
            match self.resolve(reference) {
                Some(target) if depth < MAX_DEPTH => {
                    push_unique(&mut members, self.ty(target, depth + 1, indent))
                }
                _ => push_unique(&mut members, name.to_owned()),
            }
            return members;
        }
        if let Some(value) = schema.get("const") {
            push_unique(&mut members, value.to_string());
            return members;
        }
        if let Some(Value::Array(values)) = schema.get("enum") {
            for value in values {
                push_unique(&mut members, value.to_string());
            }
            return members;
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = schema.get(key) {
                for branch in branches {
                    push_unique(&mut members, self.ty(branch, depth + 1, indent));
                }
            }
        }
        if let Some(Value::Array(parts)) = schema.get("allOf") {
            let parts: Vec<String> = parts
                .iter()
                .map(|part| parenthesized(self.ty(part, depth + 1, indent)))
                .collect();
            if !parts.is_empty() {
                push_unique(&mut members, parts.join(" & "));
            }
        }
        match schema.get("type") {
            Some(Value::String(ty)) => {
                push_unique(&mut members, self.of_type(ty, schema, depth, indent))
            }
            Some(Value::Array(types)) => {
                for ty in types.iter().filter_map(Value::as_str) {
                    push_unique(&mut members, self.of_type(ty, schema, depth, indent));
                }
            }
            _ if !members.is_empty() => {}
            _ if schema.contains_key("properties") => {
                push_unique(&mut members, self.of_type("object", schema, depth, indent))
            }
            _ if schema.contains_key("items") => {
                push_unique(&mut members, self.of_type("array", schema, depth, indent))
            }
            _ => {}
        }
        members
    }

    fn of_type(
        &self,
        ty: &str,
        schema: &Map<String, Value>,
        depth: usize,
        indent: usize,
    ) -> String {
        match ty {
            "string" => "string".into(),
            "number" | "integer" => "number".into(),
            "boolean" => "boolean".into(),
            "null" => "null".into(),
            "array" => match (schema.get("prefixItems"), schema.get("items")) {
                (Some(Value::Array(items)), _) => {
                    let items: Vec<String> = items
                        .iter()
                        .map(|item| self.ty(item, depth + 1, indent))
                        .collect();
                    format!("[{}]", items.join(", "))
                }
                (_, Some(items)) => {
                    format!("{}[]", parenthesized(self.ty(items, depth + 1, indent)))
                }
                _ => "unknown[]".into(),
            },
            "object" => self.object(schema, depth, indent),
            other => other.to_owned(),
        }
    }

    fn object(&self, schema: &Map<String, Value>, depth: usize, indent: usize) -> String {
        let properties = match schema.get("properties") {
            Some(Value::Object(properties)) if !properties.is_empty() => properties,
            _ => {
                let values = match schema.get("additionalProperties") {
                    Some(values @ Value::Object(_)) => self.ty(values, depth + 1, indent),
                    _ => "unknown".into(),
                };
                return format!("Record<string, {values}>");
            }
        };
        let required: Vec<&str> = match schema.get("required") {
            Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let pad = "  ".repeat(indent + 1);
        let mut out = String::from("{\n");
        for (key, property) in properties {
            if let Some(description) = property.get("description").and_then(Value::as_str) {
                let description = description.split_whitespace().collect::<Vec<_>>().join(" ");
                if !description.is_empty() {
                    out.push_str(&format!(
                        "{pad}/** {} */\n",
                        description.replace("*/", "* /")
                    ));
                }
            }
            let optional = if required.contains(&key.as_str()) {
                ""
            } else {
                "?"
            };
            let ty = self.ty(property, depth + 1, indent + 1);
            out.push_str(&format!("{pad}{}{optional}: {ty};\n", property_key(key)));
        }
        out.push_str(&"  ".repeat(indent));
        out.push('}');
        out
    }

    /// The schema `#/$defs/NAME` or `#/definitions/NAME` points at, in the root schema.
    fn resolve(&self, reference: &str) -> Option<&Value> {
        let path = reference.strip_prefix("#/")?;
        let mut target = self.root;
        for part in path.split('/') {
            let part = part.replace("~1", "/").replace("~0", "~");
            target = target.get(part.as_str())?;
        }
        Some(target)
    }
}

/// Adds `member` to a union unless it is there already.
fn push_unique(members: &mut Vec<String>, member: String) {
    if !members.contains(&member) {
        members.push(member);
    }
}

/// `(A | B)` where a union or intersection sits inside an array or intersection.
fn parenthesized(ty: String) -> String {
    if ty.contains(" | ") || ty.contains(" & ") {
        format!("({ty})")
    } else {
        ty
    }
}

/// A property name as TypeScript writes it: bare when it is an identifier, else quoted.
fn property_key(key: &str) -> String {
    let mut chars = key.chars();
    let identifier = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if identifier {
        key.to_owned()
    } else {
        Value::String(key.to_owned()).to_string()
    }
}

/// A tool description with its Markdown headings pushed one level down, so that they sit
/// under the inventory's `# Tool:` heading: only when the description has a level-1
/// heading (0–3 spaces, one `#`, then a space, a tab or the end of the line) outside
/// fenced code; then every ATX heading outside fences (0–3 spaces, 1–6 `#`, then a space,
/// a tab or the end) gets one more `#`. A fence is a line of 0–3 spaces and three or more
/// backticks or tildes; it closes on a line of the same character (docs/seed.md §1.9).
///
/// # Panics
/// Never.
pub fn demote_headings(description: &str) -> String {
    let lines: Vec<&str> = description.split('\n').collect();
    let outside = outside_fences(&lines);
    let has_top = lines
        .iter()
        .zip(&outside)
        .any(|(line, outside)| *outside && heading_level(line) == Some(1));
    if !has_top {
        return description.to_owned();
    }
    let demoted: Vec<String> = lines
        .iter()
        .zip(&outside)
        .map(|(line, outside)| match heading_level(line) {
            Some(_) if *outside => {
                let spaces = line.len() - line.trim_start_matches(' ').len();
                format!("{}#{}", &line[..spaces], &line[spaces..])
            }
            _ => (*line).to_owned(),
        })
        .collect();
    demoted.join("\n")
}

/// Per line, whether it is outside fenced code (fence lines themselves are inside).
fn outside_fences(lines: &[&str]) -> Vec<bool> {
    let mut open: Option<char> = None;
    lines
        .iter()
        .map(|line| {
            let fence = fence_char(line);
            match (open, fence) {
                (None, Some(c)) => {
                    open = Some(c);
                    false
                }
                (Some(o), Some(c)) if o == c => {
                    open = None;
                    false
                }
                (Some(_), _) => false,
                (None, None) => true,
            }
        })
        .collect()
}

/// The fence character of a line of 0–3 spaces and three or more backticks or tildes.
fn fence_char(line: &str) -> Option<char> {
    let rest = line.trim_start_matches(' ');
    if line.len() - rest.len() > 3 {
        return None;
    }
    ['`', '~']
        .into_iter()
        .find(|&c| rest.chars().take_while(|&x| x == c).count() >= 3)
}

/// The level of an ATX heading line: 0–3 spaces, 1–6 `#`, then a space, a tab or the end.
fn heading_level(line: &str) -> Option<usize> {
    let rest = line.trim_start_matches(' ');
    if line.len() - rest.len() > 3 {
        return None;
    }
    let level = rest.chars().take_while(|&c| c == '#').count();
    let after = rest[level..].chars().next();
    ((1..=6).contains(&level) && matches!(after, None | Some(' ' | '\t' | '\r'))).then_some(level)
}
