//! The bundled transcripts of the seed-oss, jamba, longcat, granite, internlm, mistral,
//! pythonic, lfm2, llama3-json, xlam, phi4-mini, hunyuan-a13b, cohere, apertus, dots, ernie45,
//! granite-20b-fc, muse, gigachat3 and plamo3 families,
//! read whole: each gives exactly its content, reasoning and calls (their chunk invariance
//! is in `scan.rs` and `openai.rs`, which read every bundled transcript).

use serde_json::{json, Value};

use crate::common::{data, inband, stdout};

/// The summary of `file` in `dialect` without the calls' (random) ids.
fn summary(file: &str, dialect: &str) -> Value {
    let path = data(&format!("transcripts/{file}"));
    let out = stdout(&inband(&[
        "scan",
        path.to_str().unwrap(),
        "--dialect",
        dialect,
        "--seed",
        "1",
    ]));
    let mut summary: Value = serde_json::from_str(&out).unwrap();
    for call in summary["tool_calls"].as_array_mut().unwrap() {
        call.as_object_mut().unwrap().remove("id");
    }
    summary
}

#[test]
fn seed_oss_transcripts_give_their_calls() {
    let cases = [
        (
            "seed-oss-read-and-grep.txt",
            json!({"content": "I'll read the config loader and search for every caller of `load_config`.", "reasoning": null, "tool_calls": [{"name": "read_file", "arguments": {"path": "src/config.rs", "offset": 1, "limit": 80}}, {"name": "grep", "arguments": {"pattern": "load_config(", "paths": ["src", "tests"]}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "seed-oss-weather-with-budget.txt",
            json!({"content": "", "reasoning": "Got it, the user wants the weather in Barcelona for tomorrow. I have a get_weather tool that takes a location and a date, so I should call it rather than guess.\n<seed:cot_budget_reflect>I have used 42 tokens, and there are 470 tokens remaining for use.</seed:cot_budget_reflect>\nThe date is relative, so I will pass \"tomorrow\" as written.", "tool_calls": [{"name": "get_weather", "arguments": {"location": "Barcelona, Spain", "date": "tomorrow"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "seed-oss-write-multiline.txt",
            json!({"content": "Writing the fixture.", "reasoning": "The test needs a fixture with two lines; the value is written as is, with no framing newlines.", "tool_calls": [{"name": "write_file", "arguments": {"path": "tests/fixtures/greeting.txt", "content": "Hello, <world> & \"friends\"!\nZürich — 東京"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "seed-oss"), want, "{file}");
    }
}

#[test]
fn jamba_transcripts_give_their_calls() {
    let cases = [
        (
            "jamba-reasoning-search.txt",
            json!({"content": "", "reasoning": "The user wants recent news about Jamba releases. I should search instead of answering from memory.", "tool_calls": [{"name": "web_search", "arguments": {"query": "AI21 Jamba 1.7 release", "max_results": 3}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "jamba-weather-two-cities.txt",
            json!({"content": "I'll check both cities at once.", "reasoning": null, "tool_calls": [{"name": "get_current_weather", "arguments": {"location": "Tel Aviv, Israel", "unit": "celsius"}}, {"name": "get_current_weather", "arguments": {"location": "Haifa, Israel", "unit": "celsius"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "jamba-write-file.txt",
            json!({"content": "Saving the summary and notifying the team.", "reasoning": null, "tool_calls": [{"name": "write_file", "arguments": {"path": "notes/summary.md", "content": "# Summary\n\n- latency: 120 ms\n- errors: \"none\" </tool_calls> in text"}}, {"name": "send_message", "arguments": {"channel": "#eng", "text": "Summary saved — see notes/summary.md"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "jamba"), want, "{file}");
    }
}

#[test]
fn longcat_transcripts_give_their_calls() {
    let cases = [
        (
            "longcat-code-edit.txt",
            json!({"content": "The off-by-one is in the loop bound; I'll fix it and run the tests.", "reasoning": null, "tool_calls": [{"name": "edit_file", "arguments": {"path": "src/window.py", "old": "for i in range(n - 1):\n    out.append(xs[i])", "new": "for i in range(n):\n    out.append(xs[i])"}}, {"name": "run", "arguments": {"command": "pytest -q tests/test_window.py", "timeout": 120}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "longcat-thinking-search.txt",
            json!({"content": "", "reasoning": "The user asks who wrote the paper. I do not know it for sure, so I should search before answering.", "tool_calls": [{"name": "web_search", "arguments": {"query": "LongCat-Flash technical report authors", "top_k": 5}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "longcat-weather-two-cities.txt",
            json!({"content": "I'll look up both cities.", "reasoning": null, "tool_calls": [{"name": "get_forecast", "arguments": {"city": "Beijing", "days": 3}}, {"name": "get_forecast", "arguments": {"city": "Shanghai", "days": 3}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "longcat"), want, "{file}");
    }
}

#[test]
fn granite_transcripts_give_their_calls() {
    let cases = [
        (
            "granite-search-and-write.txt",
            json!({"content": "I'll search the docs, then save what I find.", "reasoning": null, "tool_calls": [{"name": "search_docs", "arguments": {"query": "watsonx.ai rate limits", "top_k": 3}}, {"name": "write_file", "arguments": {"path": "notes/limits.md", "content": "# Rate limits\n\n- see [docs] for \"tiers\" ]"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "granite-thinking-stock.txt",
            json!({"content": "", "reasoning": "The user asks for IBM's current share price. Prices change by the minute, so I should call the quote tool instead of answering from memory.", "tool_calls": [{"name": "get_stock_price", "arguments": {"ticker": "IBM", "exchange": "NYSE"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "granite-weather-two-cities.txt",
            json!({"content": "", "reasoning": null, "tool_calls": [{"name": "get_current_weather", "arguments": {"location": "Boston, MA", "unit": "fahrenheit"}}, {"name": "get_current_weather", "arguments": {"location": "San Francisco, CA", "unit": "fahrenheit"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "granite"), want, "{file}");
    }
}

#[test]
fn internlm_transcripts_give_their_calls() {
    let cases = [
        (
            "internlm-search-and-read.txt",
            json!({"content": "", "reasoning": null, "tool_calls": [{"name": "search", "arguments": {"query": "InternLM2.5 context length", "limit": 3}}, {"name": "read_url", "arguments": {"url": "https://github.com/InternLM/InternLM"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "internlm-think-and-write.txt",
            json!({"content": "Writing the file.", "reasoning": "The file needs a header line; I will write it with a quoted title.", "tool_calls": [{"name": "write_file", "arguments": {"path": "notes/INTERNLM.md", "content": "# \"InternLM\" notes\n\n书生·浦语 & more"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "internlm-weather.txt",
            json!({"content": "I'll look up the weather first.", "reasoning": null, "tool_calls": [{"name": "get_current_weather", "arguments": {"location": "Shanghai", "unit": "celsius"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "internlm"), want, "{file}");
    }
}

#[test]
fn mistral_transcripts_give_their_calls() {
    let cases = [
        (
            "mistral-magistral-read-and-write.txt",
            json!({"content": "Reading the file, then writing it.", "reasoning": "The user wants the notes file updated. I read it first, then write the new heading with a quoted title.", "tool_calls": [{"name": "read_file", "arguments": {"path": "notes/MISTRAL.md"}}, {"name": "write_file", "arguments": {"path": "notes/MISTRAL.md", "content": "# \"Magistral\" notes\n\nLe vent — [TOOL_CALLS] is a token"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "mistral-nemo-weather-two-cities.txt",
            json!({"content": "", "reasoning": null, "tool_calls": [{"name": "get_current_weather", "arguments": {"location": "Paris, France", "unit": "celsius"}}, {"name": "get_current_weather", "arguments": {"location": "Lyon, France", "unit": "celsius"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "mistral-small-search-with-id.txt",
            json!({"content": "", "reasoning": null, "tool_calls": [{"name": "search", "arguments": {"query": "Mistral Small 3.2 context length", "limit": 3}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "mistral"), want, "{file}");
    }
}

#[test]
fn pythonic_transcripts_give_their_calls() {
    let cases = [
        (
            "pythonic-llama4-weather.txt",
            json!({"content": "", "reasoning": null, "tool_calls": [{"name": "get_weather", "arguments": {"city": "San Francisco", "unit": "fahrenheit"}}, {"name": "get_time", "arguments": {"timezone": "America/Los_Angeles"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "pythonic-olmo3-think-and-read.txt",
            json!({"content": "", "reasoning": "The user wants the repository README; I will read it, then search for the license.", "tool_calls": [{"name": "read_file", "arguments": {"path": "README.md", "lines": [1, 40]}}, {"name": "search", "arguments": {"query": "license \"MIT\" OR Apache", "case_sensitive": false}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "pythonic"), want, "{file}");
    }
}

#[test]
fn lfm2_transcripts_give_their_calls() {
    let cases = [
        (
            "lfm2-forecast.txt",
            json!({"content": "I will check the forecast.", "reasoning": null, "tool_calls": [{"name": "get_forecast", "arguments": {"location": "Zürich", "days": 2, "details": {"wind": true, "units": null}}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "lfm2-think-and-search.txt",
            json!({"content": "", "reasoning": "Two lookups are needed.", "tool_calls": [{"name": "search", "arguments": {"q": "LFM2 \"1.2B\" context"}}, {"name": "read_url", "arguments": {"url": "https://docs.liquid.ai/lfm"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "lfm2"), want, "{file}");
    }
}

#[test]
fn llama3_json_transcripts_give_their_calls() {
    let cases = [
        (
            "llama3-json-llama31-weather.txt",
            json!({"content": "", "reasoning": null, "tool_calls": [{"name": "get_current_weather", "arguments": {"location": "San Francisco, CA", "unit": "fahrenheit"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "llama3-json-llama33-flights-and-hotel.txt",
            json!({"content": "", "reasoning": null, "tool_calls": [{"name": "search_flights", "arguments": {"origin": "SFO", "destination": "JFK", "date": "2024-09-12"}}, {"name": "get_hotel_rates", "arguments": {"city": "New York", "nights": 2}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "llama3-json-llama4-prose-then-search.txt",
            json!({"content": "I will look that up for you.", "reasoning": null, "tool_calls": [{"name": "wikipedia_search", "arguments": {"query": "Menlo Park \"Meta\" headquarters", "limit": 3}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "llama3-json"), want, "{file}");
    }
}

#[test]
fn xlam_transcripts_give_their_calls() {
    let cases = [
        (
            "xlam-2-weather-and-time.txt",
            json!({"content": "", "reasoning": null, "tool_calls": [{"name": "get_weather", "arguments": {"location": "New York, NY", "unit": "fahrenheit"}}, {"name": "get_time", "arguments": {"timezone": "America/New_York"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "xlam-2-qwen-think-then-distance.txt",
            json!({"content": "", "reasoning": "The user asks for the distance; I should call the maps tool.", "tool_calls": [{"name": "calculate_distance", "arguments": {"origin": "San Jose, CA", "destination": "Palo Alto, CA", "mode": "driving"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "xlam-1-tool-calls-search.txt",
            json!({"content": "", "reasoning": null, "tool_calls": [{"name": "search_products", "arguments": {"query": "noise cancelling headphones", "max_price": 200, "in_stock": true}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "xlam"), want, "{file}");
    }
}

#[test]
fn phi4_mini_transcripts_give_their_calls() {
    let cases = [
        (
            "phi4-mini-weather.txt",
            json!({"content": "", "reasoning": null, "tool_calls": [{"name": "get_weather_updates", "arguments": {"location": "Paris, France"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "phi4-mini-rates-and-convert.txt",
            json!({"content": "I will look up both exchange rates and then convert the amount.", "reasoning": null, "tool_calls": [{"name": "get_exchange_rate", "arguments": {"base": "USD", "quote": "EUR"}}, {"name": "get_exchange_rate", "arguments": {"base": "USD", "quote": "JPY"}}, {"name": "convert", "arguments": {"amount": 250.0, "from": "USD", "to": ["EUR", "JPY"]}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "phi4-mini-reasoning-search.txt",
            json!({"content": "", "reasoning": "The user wants the files that mention `functools` in the src tree. A plain search does it; the pattern has a bracket, so it goes in the JSON as a string.", "tool_calls": [{"name": "search_files", "arguments": {"pattern": "functools\\[", "path": "src", "glob": "*.py"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "phi4-mini"), want, "{file}");
    }
}

#[test]
fn hunyuan_a13b_transcripts_give_their_calls() {
    let cases = [
        (
            "hunyuan-a13b-weather.txt",
            json!({"content": "", "reasoning": "The user asks about the weather in Shenzhen. The get_weather tool takes a city name, so I will call it.", "tool_calls": [{"name": "get_weather", "arguments": {"city": "Shenzhen"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "hunyuan-a13b-fast-two-calls.txt",
            json!({"content": "", "reasoning": "", "tool_calls": [{"name": "read_excel", "arguments": {"path": "reports/q3.xlsx", "sheet": "Summary"}}, {"name": "run_sql", "arguments": {"query": "SELECT region, SUM(amount) FROM sales WHERE quarter = 'Q3' GROUP BY region"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "hunyuan-a13b-book-meeting.txt",
            json!({"content": "", "reasoning": "The search found the meeting room, so the next step is to book it. The title is in Chinese; it goes into the JSON as written.", "tool_calls": [{"name": "create_event", "arguments": {"title": "季度复盘会议", "room": "B-12", "time": {"start": "2025-07-01T10:00:00+08:00", "end": "2025-07-01T11:30:00+08:00"}, "attendees": ["li.wei", "zhang.min"]}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "hunyuan-a13b"), want, "{file}");
    }
}

#[test]
fn hunyuan_transcripts_give_their_calls() {
    let cases = [
        (
            "hunyuan-hy3-weather-two-cities.txt",
            json!({"content": "I will check the weather in both cities.", "reasoning": null, "tool_calls": [{"name": "get_weather", "arguments": {"city": "Shenzhen", "days": 2}}, {"name": "get_weather", "arguments": {"city": "北京", "days": 2}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "hunyuan-hy3-think-and-edit.txt",
            json!({"content": "", "reasoning": "The test fails on an off-by-one; I should edit the loop bound, then rerun the tests.", "tool_calls": [{"name": "edit_file", "arguments": {"path": "src/range.rs", "old": "for i in 0..=n {", "new": "for i in 0..n {\n    // n is exclusive"}}, {"name": "run", "arguments": {"command": "cargo test --lib range"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "hunyuan-hy4-search.txt",
            json!({"content": "", "reasoning": null, "tool_calls": [{"name": "search", "arguments": {"query": "Hunyuan \"HY4\" release notes", "limit": 5}}, {"name": "get_current_date", "arguments": {}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "hunyuan"), want, "{file}");
    }
}

#[test]
fn iquest_q1_transcripts_give_their_calls() {
    let cases = [
        (
            "iquest-q1-think-and-add.txt",
            json!({"content": "", "reasoning": "The sum needs the tool.", "tool_calls": [{"name": "add", "arguments": {"a": 19, "b": 23}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "iquest-q1-read-and-list.txt",
            json!({"content": "I will read the config and list the tests.", "reasoning": null, "tool_calls": [{"name": "read_file", "arguments": {"path": "config/app.toml"}}, {"name": "run", "arguments": {"command": "ls tests/ | grep -c \"_test.rs\""}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "iquest-q1-write-multiline.txt",
            json!({"content": "", "reasoning": null, "tool_calls": [{"name": "write_file", "arguments": {"path": "src/lib.rs", "content": "pub fn clamp(x: i32) -> i32 {\n    x.max(0).min(10) // keep 0 <= x <= 10\n}\n"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "iquest-q1"), want, "{file}");
    }
}

#[test]
fn k2_horizon_transcripts_give_their_calls() {
    let cases = [
        (
            "k2-horizon-think-and-shell.txt",
            json!({"content": "", "reasoning": "The user wants the files and the disk usage; two shell calls.", "tool_calls": [{"name": "shell", "arguments": {"cmd": "ls -la src/"}}, {"name": "shell", "arguments": {"cmd": "du -sh ."}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "k2-horizon-python.txt",
            json!({"content": "Let me compute that.", "reasoning": null, "tool_calls": [{"name": "python", "arguments": {"code": "print(1234567 * 891011)"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "k2-horizon-fast-edit.txt",
            json!({"content": "", "reasoning": "Edit then test.", "tool_calls": [{"name": "edit", "arguments": {"path": "src/main.cc", "patch": "-  return a<b;\n+  return a <= b;", "dry_run": false}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "k2-horizon"), want, "{file}");
    }
}

#[test]
fn cohere_transcripts_give_their_calls() {
    let cases = [
        (
            "cohere-weather.txt",
            json!({"content": "", "reasoning": "The user wants the weather in Toronto. I will call get_weather with the city.", "tool_calls": [{"name": "get_weather", "arguments": {"city": "Toronto", "unit": "celsius"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "cohere-search-three-calls.txt",
            json!({"content": "", "reasoning": "I will search for the founders and the headquarters separately, then read the company page.", "tool_calls": [{"name": "web_search", "arguments": {"query": "Cohere founders"}}, {"name": "web_search", "arguments": {"query": "Cohere headquarters"}}, {"name": "read_page", "arguments": {"url": "https://cohere.com/about", "max_chars": 4000}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "cohere-text-then-write.txt",
            json!({"content": "I found the report and am saving a summary.", "reasoning": "The search found the file; I now write the summary to notes.md and tell the user.", "tool_calls": [{"name": "write_file", "arguments": {"path": "notes.md", "content": "# Q3 report\n\n- revenue up 12%\n- <b>two</b> new regions & offices\n"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "cohere"), want, "{file}");
    }
}

#[test]
fn apertus_transcripts_give_their_calls() {
    let cases = [
        (
            "apertus-weather.txt",
            json!({"content": "", "reasoning": "The user asks for the weather in Bern. The get_weather tool takes a city, so I call it.", "tool_calls": [{"name": "get_weather", "arguments": {"city": "Bern", "unit": "celsius"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "apertus-two-calls.txt",
            json!({"content": "", "reasoning": null, "tool_calls": [{"name": "search_papers", "arguments": {"query": "Swiss AI Apertus", "limit": 5}}, {"name": "fetch_page", "arguments": {"url": "https://www.swiss-ai.org/apertus"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "apertus-answer-then-write.txt",
            json!({"content": "Ich speichere die Übersetzung.", "reasoning": "I will save the translation the user asked for.", "tool_calls": [{"name": "write_file", "arguments": {"path": "notes/de.md", "content": "# Grüezi\n\nDas Modell & die <b>Daten</b> sind offen.\n", "overwrite": true}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "apertus"), want, "{file}");
    }
}

#[test]
fn deepseek_v41_transcripts_give_their_calls() {
    let cases = [
        (
            "deepseek-v41-think-and-shell.txt",
            json!({"content": "", "reasoning": "The user wants the files and the disk usage; two shell calls.", "tool_calls": [{"name": "shell", "arguments": {"cmd": "ls -la src/"}}, {"name": "shell", "arguments": {"cmd": "du -sh ."}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "deepseek-v41-python.txt",
            json!({"content": "Let me compute that.", "reasoning": null, "tool_calls": [{"name": "python", "arguments": {"code": "print(1234567 * 891011)"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "deepseek-v41-edit.txt",
            json!({"content": "", "reasoning": "Edit then test.", "tool_calls": [{"name": "edit", "arguments": {"path": "src/main.cc", "patch": "-  return a<b;\n+  return a <= b;", "dry_run": false}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "deepseek-v41"), want, "{file}");
    }
}

#[test]
fn dots_transcripts_give_their_calls() {
    let cases = [
        (
            "dots-think-and-weather.txt",
            json!({"content": "", "reasoning": "The user asks for the weather in Shanghai over the next three days. The search tool takes a query and a day count; call it once.", "tool_calls": [{"name": "get_weather", "arguments": {"city": "Shanghai", "days": 3}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "dots-read-and-grep.txt",
            json!({"content": "I will read the router and look for every handler that calls `parse_query`.", "reasoning": null, "tool_calls": [{"name": "read_file", "arguments": {"path": "src/router.rs", "limit": 120}}, {"name": "grep", "arguments": {"pattern": "parse_query(", "paths": ["src", "tests"]}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "dots-write-html.txt",
            json!({"content": "Writing the fixture.", "reasoning": null, "tool_calls": [{"name": "write_file", "arguments": {"path": "tests/fixtures/menu.html", "content": "<ul>\n  <li>Fish & chips — £9</li>\n  <li>小笼包</li>\n</ul>"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "dots"), want, "{file}");
    }
}

#[test]
fn ernie45_transcripts_give_their_calls() {
    let cases = [
        (
            "ernie45-weather.txt",
            json!({"content": "", "reasoning": "The user asks for the weather in Beijing. get_weather takes a city and a unit, so I call it once.", "tool_calls": [{"name": "get_weather", "arguments": {"city": "北京", "unit": "celsius"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "ernie45-two-calls.txt",
            json!({"content": "", "reasoning": null, "tool_calls": [{"name": "read_file", "arguments": {"path": "src/lib.rs", "limit": 200}}, {"name": "grep", "arguments": {"pattern": "fn parse(", "paths": ["src", "tests"]}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "ernie45-answer-then-write.txt",
            json!({"content": "我把译文保存到文件里。", "reasoning": "Save the translation the user asked for.", "tool_calls": [{"name": "write_file", "arguments": {"path": "notes/zh.md", "content": "# 你好\n\n模型 & <b>数据</b> 都是开放的。\n", "overwrite": true}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "ernie45"), want, "{file}");
    }
}

#[test]
fn granite_20b_fc_transcripts_give_their_calls() {
    let cases = [
        (
            "granite-20b-fc-weather.txt",
            json!({"content": "", "reasoning": null, "tool_calls": [{"name": "get_current_weather", "arguments": {"location": "San Francisco, CA", "unit": "celsius"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "granite-20b-fc-three-calls.txt",
            json!({"content": "", "reasoning": null, "tool_calls": [{"name": "get_stock_price", "arguments": {"symbol": "IBM"}}, {"name": "get_stock_price", "arguments": {"symbol": "RHT"}}, {"name": "convert_currency", "arguments": {"amount": 100, "from": "USD", "to": "EUR"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "granite-20b-fc-text-then-write.txt",
            json!({"content": "I will write the page.", "reasoning": null, "tool_calls": [{"name": "write_file", "arguments": {"path": "site/menu.html", "content": "<ul>\n  <li>Crêpes & cidre</li>\n  <li>\"Plat du jour\"</li>\n</ul>\n"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "granite-20b-fc"), want, "{file}");
    }
}

#[test]
fn functiongemma_transcripts_give_their_calls() {
    let cases = [
        (
            "functiongemma-parallel-weather.txt",
            json!({"content": "I will look up the weather in both cities.", "reasoning": null, "tool_calls": [{"name": "get_current_weather", "arguments": {"location": "Tokyo, JP", "unit": "celsius"}}, {"name": "get_current_weather", "arguments": {"location": "San Francisco, CA", "unit": "fahrenheit"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "functiongemma-calendar-event.txt",
            json!({"content": "", "reasoning": null, "tool_calls": [{"name": "create_calendar_event", "arguments": {"title": "Design review: \"v2\" {API}", "start": {"date": "2025-03-14", "hour": 15, "minute": 30}, "attendees": ["ana@example.com", "li@example.com"], "remind": true, "notes": "Bring the \"draft\" slides, and the numbers: 1, 2, 3."}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "functiongemma-send-sms.txt",
            json!({"content": "Sending it now.", "reasoning": null, "tool_calls": [{"name": "send_sms", "arguments": {"phone_number": "+1 555 0100", "message": "Running 10 min late,\nsorry!"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "functiongemma"), want, "{file}");
    }
}

#[test]
fn minicpm5_transcripts_give_their_calls() {
    let cases = [
        (
            "minicpm5-think-and-weather.txt",
            json!({"content": "", "reasoning": "The user wants the weather in Beijing for tomorrow. The tool takes a city and a date; call it once.", "tool_calls": [{"name": "get_weather", "arguments": {"city": "北京", "date": "2024-06-28"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "minicpm5-read-and-grep.txt",
            json!({"content": "I will read the router and search for every caller of `parse_query`.", "reasoning": null, "tool_calls": [{"name": "read_file", "arguments": {"path": "src/router.rs", "limit": 120}}, {"name": "grep", "arguments": {"pattern": "parse_query(", "paths": ["src", "tests"]}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "minicpm5-write-cdata.txt",
            json!({"content": "Writing the template.", "reasoning": null, "tool_calls": [{"name": "write_file", "arguments": {"path": "templates/param.xml", "content": "<function name=\"demo\">\n  <param name=\"x\">1 & 2</param>\n</function>"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "minicpm5"), want, "{file}");
    }
}

#[test]
fn kimi_k3_transcripts_give_their_calls() {
    let cases = [
        (
            "kimi-k3-think-and-shell.txt",
            json!({"content": "Running the tests.", "reasoning": "The user wants the failing test. Run the test suite once and read the output.", "tool_calls": [{"name": "shell", "arguments": {"cmd": ["cargo", "test", "--workspace"], "timeout": 600}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "kimi-k3-read-and-grep.txt",
            json!({"content": "", "reasoning": null, "tool_calls": [{"name": "read_file", "arguments": {"path": "src/router.rs", "limit": 120}}, {"name": "grep", "arguments": {"pattern": "parse_query(", "paths": ["src", "tests"], "ignore_case": false}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "kimi-k3-write-html.txt",
            json!({"content": "Writing the fixture.", "reasoning": null, "tool_calls": [{"name": "write_file", "arguments": {"path": "tests/fixtures/menu.html", "content": "<ul>\n  <li>Fish & chips — £9</li>\n  <li>小笼包</li>\n</ul>"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "kimi-k3"), want, "{file}");
    }
}

#[test]
fn muse_transcripts_give_their_calls() {
    let cases = [
        (
            "muse-think-and-weather.txt",
            json!({"content": "", "reasoning": "The user wants the weather in Oslo for the next two days. get_weather takes a city and a day count; one call is enough.", "tool_calls": [{"name": "get_weather", "arguments": {"city": "Oslo", "days": 2}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "muse-read-and-grep.txt",
            json!({"content": "I will read the router and look for every handler that calls `parse_query`.", "reasoning": null, "tool_calls": [{"name": "fs.read", "arguments": {"path": "src/router.rs", "limit": 120}}, {"name": "code.grep", "arguments": {"pattern": "parse_query(", "paths": ["src", "tests"]}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "muse-write-html.txt",
            json!({"content": "Writing the fixture.", "reasoning": "The fixture needs the menu as a list; write it raw, entities would be read literally.", "tool_calls": [{"name": "write_file", "arguments": {"path": "tests/fixtures/menu.html", "content": "<ul>\n  <li>Fish & chips — £9</li>\n  <li>小笼包</li>\n</ul>"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "muse"), want, "{file}");
    }
}

#[test]
fn mimo_transcripts_give_their_calls() {
    let cases = [
        (
            "mimo-think-and-shell.txt",
            json!({"content": "", "reasoning": "The user wants to know why the build fails on CI. Run the build with the same flags CI uses and read the first errors.", "tool_calls": [{"name": "run_shell", "arguments": {"command": "cargo build --locked --all-targets 2>&1 | head -n 60", "timeout": 300}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "mimo-read-and-grep.txt",
            json!({"content": "I will open the handler and find every place that calls `parse_query`.", "reasoning": null, "tool_calls": [{"name": "read_file", "arguments": {"path": "src/handlers/search.rs", "limit": 120}}, {"name": "grep", "arguments": {"pattern": "parse_query(", "paths": ["src", "tests"]}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "mimo-write-patch.txt",
            json!({"content": "Writing the patch file; the value keeps its first and last line breaks.", "reasoning": null, "tool_calls": [{"name": "write_file", "arguments": {"path": "patches/fix-greeting.diff", "content": "\n--- a/greet.py\n+++ b/greet.py\n@@ -1 +1 @@\n-print(\"hello\")\n+print(\"Hello, <world> & 世界!\")\n"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "mimo"), want, "{file}");
    }
}

#[test]
fn step3_transcripts_give_their_calls() {
    let cases = [
        (
            "step3-think-and-weather.txt",
            json!({"content": "", "reasoning": "The user wants tomorrow's weather in Hangzhou and whether to bring an umbrella. One forecast call covers both.", "tool_calls": [{"name": "get_weather", "arguments": {"city": "Hangzhou", "days": 2}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "step3-read-and-grep.txt",
            json!({"content": "I will read the router and look for every handler that calls `parse_query`.", "reasoning": null, "tool_calls": [{"name": "read_file", "arguments": {"path": "src/router.rs", "limit": 120}}, {"name": "grep", "arguments": {"pattern": "parse_query(", "paths": ["src", "tests"]}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "step3-run-python.txt",
            json!({"content": "Running the snippet.", "reasoning": null, "tool_calls": [{"name": "run_python", "arguments": {"code": "prices = {\"tea\": 3, \"cake\": 5}\ntotal = sum(v for v in prices.values() if v < 10)\nprint(f\"<b>{total}</b> & done\")"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "step3"), want, "{file}");
    }
}

#[test]
fn gigachat35_transcripts_give_their_calls() {
    let cases = [
        (
            "gigachat35-think-and-weather.txt",
            json!({"content": "", "reasoning": "Пользователь просит прогноз на выходные в Казани. Один вызов с городом и числом дней.", "tool_calls": [{"name": "get_weather", "arguments": {"city": "Казань", "days": 2}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "gigachat35-read-and-grep.txt",
            json!({"content": "I will read the router and look for every handler that calls `parse_query`.", "reasoning": null, "tool_calls": [{"name": "read_file", "arguments": {"path": "src/router.rs", "limit": 120}}, {"name": "grep", "arguments": {"pattern": "parse_query(", "paths": ["src", "tests"]}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "gigachat35-write-config.txt",
            json!({"content": "Записываю конфигурацию.", "reasoning": null, "tool_calls": [{"name": "write_file", "arguments": {"path": "deploy/config.json", "content": "{\"replicas\": 2, \"note\": \"a & <b>\"}\n"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "gigachat35"), want, "{file}");
    }
}

#[test]
fn gigachat3_transcripts_give_their_calls() {
    let cases = [
        (
            "gigachat3-weather.txt",
            json!({"content": "Сейчас посмотрю прогноз.", "reasoning": null, "tool_calls": [{"name": "get_weather", "arguments": {"city": "Москва", "days": 3}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "gigachat3-two-reads.txt",
            json!({"content": "Прочитаю оба файла.", "reasoning": null, "tool_calls": [{"name": "read_file", "arguments": {"path": "src/lib.rs", "limit": 80}}, {"name": "read_file", "arguments": {"path": "Cargo.toml"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "gigachat3-write-html.txt",
            json!({"content": "", "reasoning": null, "tool_calls": [{"name": "write_file", "arguments": {"path": "docs/menu.html", "content": "<ul>\n  <li>Борщ & пампушки</li>\n  <li>function call<|role_sep|> is text here</li>\n</ul>\n", "overwrite": true}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "gigachat3"), want, "{file}");
    }
}

#[test]
fn plamo3_transcripts_give_their_calls() {
    let cases = [
        (
            "plamo3-weather.txt",
            json!({"content": "東京の天気を調べます。", "reasoning": null, "tool_calls": [{"name": "get_weather", "arguments": {"city": "Tokyo", "days": 2}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "plamo3-think-and-read.txt",
            json!({"content": "Reading both.", "reasoning": "Both files are needed before the change.", "tool_calls": [{"name": "read_file", "arguments": {"path": "src/lib.rs", "limit": 80}}, {"name": "read_file", "arguments": {"path": "Cargo.toml"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "plamo3"), want, "{file}");
    }
}

#[test]
fn minimax_m3_transcripts_give_their_calls() {
    let cases = [
        (
            "minimax-m3-think-and-weather.txt",
            json!({"content": "", "reasoning": "The user wants the weekend forecast for Lisbon: one call with the city and two days.", "tool_calls": [{"name": "get_weather", "arguments": {"city": "Lisbon", "days": 2}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            "minimax-m3-read-and-grep.txt",
            json!({"content": "I will read the router and look for every handler that calls `parse_query`.", "reasoning": null, "tool_calls": [{"name": "read_file", "arguments": {"path": "src/router.rs", "limit": 120}}, {"name": "grep", "arguments": {"pattern": "parse_query(", "paths": ["src", "tests"]}}], "incomplete_calls": [], "diagnostics": []}),
        ),
        (
            // A `]<]minimax[>[</path>` is the closer only where a tag follows it; the
            // HTML's own `</path>` is value text.
            "minimax-m3-write-html.txt",
            json!({"content": "Writing the page.", "reasoning": null, "tool_calls": [{"name": "write_file", "arguments": {"path": "site/index.html</path> ", "content": "<main class=\"menu\">\n  <p>Tea & cake, <b>5</b></p>\n</main>\n"}}], "incomplete_calls": [], "diagnostics": []}),
        ),
    ];
    for (file, want) in cases {
        assert_eq!(summary(file, "minimax-m3"), want, "{file}");
    }
}
