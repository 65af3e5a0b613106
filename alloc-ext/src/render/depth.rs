//! How deep an argument's lists and objects nest, measured without recursion: a caller's
//! value may be nested far deeper than the stack allows (100 000 levels), and every writer
//! recurses into values, so the depth is checked first and a value the scanner or the
//! assembler would not read back is refused before anything is written.

use serde_json::{Map, Value};

use super::error::{pointer_step, Reason, RenderError};

/// The children of one open container, with the pointer of the container.
struct Open<'v> {
    pointer: String,
    children: Box<dyn Iterator<Item = (String, &'v Value)> + 'v>,
}

/// The containers directly inside `value` (found at `pointer`), each with its pointer;
/// `None` for a scalar.
fn children<'v>(value: &'v Value, pointer: &str) -> Option<Open<'v>> {
    let base = pointer.to_owned();
    let children: Box<dyn Iterator<Item = (String, &'v Value)> + 'v> = match value {
        Value::Array(items) => Box::new(
            items
                .iter()
                .enumerate()
                .map(move |(i, item)| (format!("{base}/{i}"), item)),
        ),
        Value::Object(object) => Box::new(
            object
                .iter()
                .map(move |(key, item)| (pointer_step(&base, key), item)),
        ),
        _ => return None,
    };
    Some(Open {
        pointer: pointer.to_owned(),
        children,
    })
}

/// Refuses arguments one of whose values nests more than `max` lists and objects (a value's
/// own outermost container is level 1): [`Reason::TooDeep`] carrying `max`, the error's
/// `argument` the pointer of the first container beyond it. Iterative, in bounded stack;
/// the work stops at the first container too deep.
pub(crate) fn check_depth(arguments: &Map<String, Value>, max: usize) -> Result<(), RenderError> {
    for (key, value) in arguments {
        let mut stack: Vec<Open<'_>> = Vec::new();
        let mut next = children(value, &pointer_step("", key));
        loop {
            if let Some(open) = next.take() {
                if stack.len() >= max {
                    return Err(RenderError::new(Reason::TooDeep(max)).argument(open.pointer));
                }
                stack.push(open);
            }
            let Some(top) = stack.last_mut() else {
                break;
            };
            match top.children.next() {
                Some((pointer, child)) => next = children(child, &pointer),
                None => {
                    stack.pop();
                }
            }
        }
    }
    Ok(())
}
