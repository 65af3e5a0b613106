//! The renderer's closer and follow sets against the dialect tables the scanner is built
//! from (`tables/dialects/*.toml`, read through `Dialect::delimiters`): a delimiter changed
//! in a table and not here fails this test instead of rendering text the scanner misreads.

use inband::{Dialect, Role};

use super::{ParamCalls, ANTHROPIC, GLM, MINIMAX, QWEN3_CODER, XML};

/// Every layout with its dialect and the mode its follow sets mirror (rule 4's anchored
/// check after a candidate closer: `after_value`; glm's is its `body` mode).
const LAYOUTS: [(&ParamCalls, Dialect, &str); 5] = [
    (&XML, Dialect::Xml, "after_value"),
    (&ANTHROPIC, Dialect::Anthropic, "after_value"),
    (&MINIMAX, Dialect::Minimax, "after_value"),
    (&QWEN3_CODER, Dialect::Qwen3Coder, "after_value"),
    (&GLM, Dialect::Glm, "body"),
];

fn in_mode(dialect: Dialect, mode: &str, text: &str) -> bool {
    dialect
        .delimiters()
        .any(|d| d.mode == mode && d.bytes == text.as_bytes())
}

fn in_table(dialect: Dialect, text: &str) -> bool {
    dialect.delimiters().any(|d| d.bytes == text.as_bytes())
}

#[test]
fn every_follow_is_a_delimiter_of_the_mode_it_mirrors() {
    let mut checked = 0;
    for (layout, dialect, mode) in LAYOUTS {
        let follows = layout
            .closers
            .iter()
            .flat_map(|closer| closer.follows)
            .chain(layout.key_closer.into_iter().flatten());
        for follow in follows {
            assert!(
                in_mode(dialect, mode, follow.text),
                "{dialect}: follow {:?} is not in its table's `{mode}` mode",
                follow.text
            );
            checked += 1;
        }
    }
    assert!(checked >= 40, "{checked}");
}

#[test]
fn every_closer_is_a_delimiter_of_its_table() {
    for (layout, dialect, _) in LAYOUTS {
        for closer in layout.closers {
            assert!(
                in_table(dialect, closer.text),
                "{dialect}: closer {:?} is in no mode of its table",
                closer.text
            );
        }
    }
}

#[test]
fn the_stops_are_the_tables_stop_tokens() {
    for (layout, dialect, _) in LAYOUTS {
        let mut table: Vec<&[u8]> = dialect
            .delimiters()
            .filter(|d| d.mode == "content" && d.role == Role::Stop)
            .map(|d| d.bytes)
            .collect();
        let mut ours: Vec<&[u8]> = layout.stops.iter().map(|s| s.as_bytes()).collect();
        table.sort_unstable();
        ours.sort_unstable();
        if !ours.is_empty() {
            assert_eq!(ours, table, "{dialect}");
        }
    }
}
