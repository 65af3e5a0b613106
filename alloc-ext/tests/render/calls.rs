//! Calls and results written exactly: each dialect's single call, a turn's envelopes,
//! results per dialect and the Kimi ids a caller's call keeps.

use inband::Dialect;
use inband_alloc::render::{Call, Renderer, ToolResult};
use serde_json::json;

use crate::common::{object, scan};

/// Every dialect's single call, exactly.
#[test]
fn one_call_per_dialect() {
    let call = Call::new("read", object(json!({"path": "a & <b>.rs", "n": 2})));
    let expected = [
        (Dialect::Hermes, "<tool_call>\n{\"name\":\"read\",\"arguments\":{\"path\":\"a & <b>.rs\",\"n\":2}}\n</tool_call>"),
        (Dialect::Qwen3, "<tool_call>\n{\"name\":\"read\",\"arguments\":{\"path\":\"a & <b>.rs\",\"n\":2}}\n</tool_call>"),
        (Dialect::Kimi, "<|tool_call_begin|>functions.read:0<|tool_call_argument_begin|>{\"path\":\"a & <b>.rs\",\"n\":2}<|tool_call_end|>"),
        (Dialect::Deepseek, "<｜tool▁call▁begin｜>read<｜tool▁sep｜>{\"path\":\"a & <b>.rs\",\"n\":2}<｜tool▁call▁end｜>"),
        (Dialect::Harmony, "<|start|>assistant<|channel|>commentary to=functions.read <|constrain|>json<|message|>{\"path\":\"a & <b>.rs\",\"n\":2}<|call|>"),
        (Dialect::Xml, "<invoke name=\"read\">\n<parameter name=\"path\">a & <b>.rs</parameter>\n<parameter name=\"n\">2</parameter>\n</invoke>"),
        (Dialect::Gemma, "<|tool_call>call:read{path:<|\"|>a & <b>.rs<|\"|>,n:2}<tool_call|>"),
        (Dialect::FunctionGemma, "<start_function_call>call:read{path:<escape>a & <b>.rs<escape>,n:2}<end_function_call>"),
        (Dialect::Minicpm5, "<function name=\"read\"><param name=\"path\">a & <b>.rs</param><param name=\"n\">2</param></function>"),
        (Dialect::Gemini, "```tool_code\ndefault_api.read(path=\"a & <b>.rs\", n=2)\n```"),
        (Dialect::Anthropic, "<invoke name=\"read\">\n<parameter name=\"path\">a & <b>.rs</parameter>\n<parameter name=\"n\">2</parameter>\n</invoke>"),
        (Dialect::Minimax, "<invoke name=\"read\">\n<parameter name=\"path\">a & <b>.rs</parameter>\n<parameter name=\"n\">2</parameter>\n</invoke>"),
        (Dialect::Glm, "<tool_call>read\n<arg_key>path</arg_key>\n<arg_value>a & <b>.rs</arg_value>\n<arg_key>n</arg_key>\n<arg_value>2</arg_value>\n</tool_call>"),
        (Dialect::Qwen3Coder, "<tool_call>\n<function=read>\n<parameter=path>\na & <b>.rs\n</parameter>\n<parameter=n>\n2\n</parameter>\n</function>\n</tool_call>"),
        (Dialect::Longcat, "<longcat_tool_call>\n{\"name\":\"read\",\"arguments\":{\"path\":\"a & <b>.rs\",\"n\":2}}\n</longcat_tool_call>"),
        (Dialect::Jamba, "<tool_calls>[{\"name\":\"read\",\"arguments\":{\"path\":\"a & <b>.rs\",\"n\":2}}]</tool_calls>"),
        (Dialect::Granite, "<|tool_call|>[{\"name\":\"read\",\"arguments\":{\"path\":\"a & <b>.rs\",\"n\":2}}]"),
        (Dialect::Internlm, "<|action_start|><|plugin|>\n{\"name\":\"read\",\"parameters\":{\"path\":\"a & <b>.rs\",\"n\":2}}<|action_end|>"),
        (Dialect::Mistral, "[TOOL_CALLS]read[ARGS]{\"path\":\"a & <b>.rs\",\"n\":2}"),
        (Dialect::Pythonic, "<function_calls>\nread(path=\"a & <b>.rs\", n=2)\n</function_calls>"),
        (Dialect::Lfm2, "<|tool_call_start|>[read(path=\"a & <b>.rs\", n=2)]<|tool_call_end|>"),
        (Dialect::Xlam, "<tool_call>[{\"name\":\"read\",\"arguments\":{\"path\":\"a & <b>.rs\",\"n\":2}}]</tool_call>"),
        (Dialect::Llama3Json, "<|python_tag|>{\"name\":\"read\",\"parameters\":{\"path\":\"a & <b>.rs\",\"n\":2}}"),
        (Dialect::HunyuanA13b, "<tool_calls>[{\"name\":\"read\",\"arguments\":{\"path\":\"a & <b>.rs\",\"n\":2}}]</tool_calls>"),
        (Dialect::Apertus, "<|tools_prefix|>[{\"read\":{\"path\":\"a & <b>.rs\",\"n\":2}}]<|tools_suffix|>"),
        (Dialect::Gigachat3, "function call<|role_sep|>\n{\"name\":\"read\",\"arguments\":{\"path\":\"a & <b>.rs\",\"n\":2}}"),
        (Dialect::Plamo3, "<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>read<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{\"path\":\"a & <b>.rs\",\"n\":2}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>"),
        (Dialect::Cohere, "<|START_ACTION|>[{\"tool_call_id\":\"0\",\"tool_name\":\"read\",\"parameters\":{\"path\":\"a & <b>.rs\",\"n\":2}}]<|END_ACTION|>"),
        (Dialect::Phi4Mini, "functools[{\"name\":\"read\",\"arguments\":{\"path\":\"a & <b>.rs\",\"n\":2}}]"),
        (Dialect::Hunyuan, "<tool_call:opensource>read<tool_sep:opensource>\n<arg_key:opensource>path</arg_key:opensource>\n<arg_value:opensource>a & <b>.rs</arg_value:opensource>\n<arg_key:opensource>n</arg_key:opensource>\n<arg_value:opensource>2</arg_value:opensource>\n</tool_call:opensource>"),
        (Dialect::IquestQ1, "<iquest_tool_call>read<arg_key>path</arg_key><arg_value>a & <b>.rs</arg_value><arg_key>n</arg_key><arg_value>2</arg_value></iquest_tool_call>"),
        (Dialect::K2Horizon, "<ifm|tool_call>read\n<ifm|arg_key>path</ifm|arg_key>\n<ifm|arg_value>a & <b>.rs</ifm|arg_value>\n<ifm|arg_key>n</ifm|arg_key>\n<ifm|arg_value>2</ifm|arg_value>\n</ifm|tool_call>"),
        (Dialect::DeepseekV41, "<｜DSML｜ invoke name=\"read\">\n<｜DSML｜ parameter name=\"path\" string=\"true\">a & <b>.rs</｜DSML｜ parameter>\n<｜DSML｜ parameter name=\"n\" string=\"false\">2</｜DSML｜ parameter>\n</｜DSML｜ invoke>"),
        (Dialect::KimiK3, "<|open|>call tool=\"read\" index=\"1\"<|sep|><|open|>argument key=\"path\" type=\"string\"<|sep|>a & <b>.rs<|close|>argument<|sep|><|open|>argument key=\"n\" type=\"number\"<|sep|>2<|close|>argument<|sep|><|close|>call<|sep|>"),
        (Dialect::Mimo, "<tool_call>\n<function=read>\n<parameter=path>a & <b>.rs</parameter>\n<parameter=n>2</parameter>\n</function>\n</tool_call>"),
        (Dialect::Step3, "<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"read\">\n<steptml:parameter name=\"path\">a & <b>.rs</steptml:parameter>\n<steptml:parameter name=\"n\">2</steptml:parameter>\n</steptml:invoke><｜tool_call_end｜>"),
        (Dialect::Gigachat35, "<｜GCML｜invoke name=\"read\">\n<｜GCML｜parameter name=\"path\" string=\"true\">a & <b>.rs</｜GCML｜parameter>\n<｜GCML｜parameter name=\"n\" string=\"false\">2</｜GCML｜parameter>\n</｜GCML｜invoke>"),
        (Dialect::SeedOss, "<seed:tool_call>\n<function=read>\n<parameter=path>a & <b>.rs</parameter>\n<parameter=n>2</parameter>\n</function>\n</seed:tool_call>"),
        (Dialect::Ernie45, "<tool_call>\n{\"name\":\"read\",\"arguments\":{\"path\":\"a & <b>.rs\",\"n\":2}}\n</tool_call>"),
        (Dialect::Granite20bFc, "<function_call> {\"name\":\"read\",\"arguments\":{\"path\":\"a & <b>.rs\",\"n\":2}}"),
        (Dialect::Muse, "<|start|>assistant to=read<|message|><atem:function_calls>\n<atem:invoke name=\"read\">\n<atem:parameter name=\"path\">a & <b>.rs</atem:parameter>\n<atem:parameter name=\"n\">2</atem:parameter>\n</atem:invoke>\n</atem:function_calls><|eom|>"),
    ];
    for (dialect, want) in expected {
        assert_eq!(
            Renderer::new(dialect).call(&call).unwrap(),
            want,
            "{dialect}"
        );
    }
}

/// Envelopes of a turn: Kimi's section and numbering (a caller's own
/// `functions.NAME:IDX` id kept), DeepSeek's section, Gemini's list.
#[test]
fn turn_envelopes() {
    let calls = [
        Call {
            id: "functions.read:7".into(),
            name: "read".into(),
            arguments: object(json!({"path": "a"})),
        },
        Call {
            id: "call_x".into(),
            name: "grep".into(),
            arguments: object(json!({"q": "b"})),
        },
    ];
    assert_eq!(
        Renderer::new(Dialect::Kimi).calls(&calls).unwrap(),
        "<|tool_calls_section_begin|>\
         <|tool_call_begin|>functions.read:7<|tool_call_argument_begin|>{\"path\":\"a\"}<|tool_call_end|>\
         <|tool_call_begin|>functions.grep:1<|tool_call_argument_begin|>{\"q\":\"b\"}<|tool_call_end|>\
         <|tool_calls_section_end|>"
    );
    assert_eq!(
        Renderer::new(Dialect::Gemini).calls(&calls).unwrap(),
        "```tool_code\n[default_api.read(path=\"a\"), default_api.grep(q=\"b\")]\n```"
    );
    let completion = scan(
        Dialect::Kimi,
        &Renderer::new(Dialect::Kimi).calls(&calls).unwrap(),
        &[],
    );
    let ids: Vec<&str> = completion
        .tool_calls
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(ids, ["functions.read:7", "functions.grep:1"]);
    assert_eq!(Renderer::new(Dialect::Xml).calls(&[]).unwrap(), "");
    assert_eq!(
        Renderer::new(Dialect::Anthropic).calls(&calls).unwrap(),
        "<function_calls>\n<invoke name=\"read\">\n<parameter name=\"path\">a</parameter>\n</invoke>\n\
         <invoke name=\"grep\">\n<parameter name=\"q\">b</parameter>\n</invoke>\n</function_calls>"
    );
    assert_eq!(
        Renderer::new(Dialect::Minimax).calls(&calls).unwrap(),
        "<minimax:tool_call>\n<invoke name=\"read\">\n<parameter name=\"path\">a</parameter>\n</invoke>\n\
         <invoke name=\"grep\">\n<parameter name=\"q\">b</parameter>\n</invoke>\n</minimax:tool_call>"
    );
    assert_eq!(
        Renderer::new(Dialect::Qwen3Coder).calls(&calls).unwrap(),
        "<tool_call>\n<function=read>\n<parameter=path>\na\n</parameter>\n</function>\n</tool_call>\n\
         <tool_call>\n<function=grep>\n<parameter=q>\nb\n</parameter>\n</function>\n</tool_call>"
    );
    assert_eq!(
        Renderer::new(Dialect::Glm).calls(&calls).unwrap(),
        "<tool_call>read\n<arg_key>path</arg_key>\n<arg_value>a</arg_value>\n</tool_call>\n\
         <tool_call>grep\n<arg_key>q</arg_key>\n<arg_value>b</arg_value>\n</tool_call>"
    );
    for dialect in [
        Dialect::Anthropic,
        Dialect::Minimax,
        Dialect::Qwen3Coder,
        Dialect::Glm,
    ] {
        assert_eq!(Renderer::new(dialect).calls(&[]).unwrap(), "", "{dialect}");
    }
}

/// Results: ids, names and the error form where the dialect has one.
#[test]
fn results_per_dialect() {
    let results = [
        ToolResult {
            tool_call_id: "functions.read:0".into(),
            name: "read".into(),
            content: "{\"a\":[1,\"x\"]}".into(),
            is_error: false,
        },
        ToolResult {
            tool_call_id: "call_9".into(),
            name: "read".into(),
            content: "no such file".into(),
            is_error: true,
        },
    ];
    let expected = [
        (Dialect::Hermes, "<tool_response>\n{\"a\":[1,\"x\"]}\n</tool_response>\n<tool_response>\nno such file\n</tool_response>"),
        (Dialect::Kimi, "<|im_system|>read<|im_middle|>## Return of functions.read:0\n{\"a\":[1,\"x\"]}<|im_end|><|im_system|>read<|im_middle|>## Return of functions.read:1\nno such file<|im_end|>"),
        (Dialect::Deepseek, "<｜tool▁output▁begin｜>{\"a\":[1,\"x\"]}<｜tool▁output▁end｜>\n<｜tool▁output▁begin｜>no such file<｜tool▁output▁end｜>"),
        (Dialect::Harmony, "<|start|>functions.read to=assistant<|channel|>commentary<|message|>{\"a\":[1,\"x\"]}<|end|><|start|>functions.read to=assistant<|channel|>commentary<|message|>no such file<|end|>"),
        (Dialect::Gemma, "<|tool_response>response:read{output:{a:[1,<|\"|>x<|\"|>]}}<tool_response|><|tool_response>response:read{error:<|\"|>no such file<|\"|>}<tool_response|>"),
        (Dialect::FunctionGemma, "<start_function_response>response:read{output:{a:[1,<escape>x<escape>]}}<end_function_response><start_function_response>response:read{error:<escape>no such file<escape>}<end_function_response>"),
        (Dialect::Minicpm5, "<tool_response>\n{\"a\":[1,\"x\"]}\n</tool_response>\n<tool_response>\nno such file\n</tool_response>"),
        (Dialect::Gemini, "```tool_outputs\n{\"a\":[1,\"x\"]}\n```\n```tool_outputs\nno such file\n```"),
        (Dialect::Anthropic, "<function_results>\n<result>\n<tool_name>read</tool_name>\n<stdout>{\"a\":[1,\"x\"]}</stdout>\n</result>\n<error>\n<tool_name>read</tool_name>\n<stderr>no such file</stderr>\n</error>\n</function_results>"),
        (Dialect::Minimax, "<function_results>\n<result>\n<tool_name>read</tool_name>\n<stdout>{\"a\":[1,\"x\"]}</stdout>\n</result>\n<error>\n<tool_name>read</tool_name>\n<stderr>no such file</stderr>\n</error>\n</function_results>"),
        (Dialect::Qwen3Coder, "<tool_response>\n{\"a\":[1,\"x\"]}\n</tool_response>\n<tool_response>\nno such file\n</tool_response>"),
        (Dialect::Longcat, "<longcat_tool_response>\n{\"a\":[1,\"x\"]}\n</longcat_tool_response>\n<longcat_tool_response>\nno such file\n</longcat_tool_response>"),
        (Dialect::Jamba, "<tool_response>\n{\"a\":[1,\"x\"]}\n</tool_response>\n<tool_response>\nno such file\n</tool_response>"),
        (Dialect::Plamo3, "<tool_response>\n{\"a\":[1,\"x\"]}\n</tool_response>\n<tool_response>\nno such file\n</tool_response>"),
        (Dialect::Granite, "<|start_of_role|>tool_response<|end_of_role|>{\"a\":[1,\"x\"]}<|end_of_text|>\n<|start_of_role|>tool_response<|end_of_role|>no such file<|end_of_text|>"),
        (Dialect::Internlm, "<|im_start|>environment name=<|plugin|>\n{\"a\":[1,\"x\"]}<|im_end|>\n<|im_start|>environment name=<|plugin|>\nno such file<|im_end|>"),
        (Dialect::Mistral, "[TOOL_RESULTS]{\"a\":[1,\"x\"]}[/TOOL_RESULTS][TOOL_RESULTS]no such file[/TOOL_RESULTS]"),
        (Dialect::Pythonic, "<|im_start|>environment\n{\"a\":[1,\"x\"]}<|im_end|>\n<|im_start|>environment\nno such file<|im_end|>"),
        (Dialect::Lfm2, "<|tool_response_start|>{\"a\":[1,\"x\"]}<|tool_response_end|><|tool_response_start|>no such file<|tool_response_end|>"),
        (Dialect::Xlam, "<|start_header_id|>ipython<|end_header_id|>\n\n{\"a\":[1,\"x\"]}<|eot_id|><|start_header_id|>ipython<|end_header_id|>\n\nno such file<|eot_id|>"),
        (Dialect::Llama3Json, "<|start_header_id|>ipython<|end_header_id|>\n\n{\"a\":[1,\"x\"]}<|eot_id|><|start_header_id|>ipython<|end_header_id|>\n\nno such file<|eot_id|>"),
        (Dialect::HunyuanA13b, "<tool_response>{\"a\":[1,\"x\"]}</tool_response><tool_response>no such file</tool_response>"),
        (Dialect::Apertus, "[{\"a\":[1,\"x\"]}, \"no such file\"]"),
        (Dialect::Gigachat3, "function result<|role_sep|>\n{\"a\":[1,\"x\"]}<|message_sep|>\n\nfunction result<|role_sep|>\nno such file<|message_sep|>\n\n"),
        (Dialect::Cohere, "<|START_TOOL_RESULT|>[{\"tool_call_id\":\"0\",\"results\":{\"0\":{\"content\":\"{\\\"a\\\":[1,\\\"x\\\"]}\"}},\"is_error\":null}, {\"tool_call_id\":\"1\",\"results\":{\"0\":{\"content\":\"no such file\"}},\"is_error\":true}]<|END_TOOL_RESULT|>"),
        (Dialect::Phi4Mini, "<|tool|>\n{\"a\":[1,\"x\"]}<|end|>\n<|tool|>\nno such file<|end|>"),
        (Dialect::Hunyuan, "<tool_responses:opensource>\n<tool_response:opensource>\n{\"a\":[1,\"x\"]}\n</tool_response:opensource>\n<tool_response:opensource>\nno such file\n</tool_response:opensource>\n</tool_responses:opensource>"),
        (Dialect::IquestQ1, "<tool_response>\n{\"a\":[1,\"x\"]}\n</tool_response>\n<tool_response>\nno such file\n</tool_response>"),
        (Dialect::K2Horizon, "<|ifm|im_start|>tool\n{\"a\":[1,\"x\"]}<|ifm|im_end|><|ifm|im_start|>tool\nno such file<|ifm|im_end|>"),
        (Dialect::DeepseekV41, "<function_results>\n<result>\n<tool_name>read</tool_name>\n<stdout>{\"a\":[1,\"x\"]}</stdout>\n</result>\n<error>\n<tool_name>read</tool_name>\n<stderr>no such file</stderr>\n</error>\n</function_results>"),
        (Dialect::KimiK3, "<tool_response>\n{\"a\":[1,\"x\"]}\n</tool_response>\n<tool_response>\nno such file\n</tool_response>"),
        (Dialect::Mimo, "<tool_response>\n{\"a\":[1,\"x\"]}\n</tool_response>\n<tool_response>\nno such file\n</tool_response>"),
        (Dialect::Step3, "<|BOT|>tool_response\n{\"a\":[1,\"x\"]}<|EOT|><|BOT|>tool_response\nno such file<|EOT|>"),
        (Dialect::Gigachat35, "function result<|role_sep|>\n{\"a\":[1,\"x\"]}<|message_sep|>\n\nfunction result<|role_sep|>\nno such file<|message_sep|>\n\n"),
        (Dialect::SeedOss, "<seed:bos>tool\n{\"a\":[1,\"x\"]}<seed:eos><seed:bos>tool\nno such file<seed:eos>"),
        (Dialect::Ernie45, "<tool_output>\n{\"a\":[1,\"x\"]}\n</tool_output>\n<tool_output>\nno such file\n</tool_output>"),
        (Dialect::Granite20bFc, "<function_response> {\"a\":[1,\"x\"]}<function_response> no such file"),
        (Dialect::Muse, "<|start|>tool read<|message|><tool_output name=\"read\">\n{\"a\":[1,\"x\"]}\n</tool_output><|eot|><|start|>tool read<|message|><tool_output name=\"read\">\nno such file\n</tool_output><|eot|>"),
    ];
    for (dialect, want) in expected {
        assert_eq!(
            Renderer::new(dialect).results(&results).unwrap(),
            want,
            "{dialect}"
        );
    }
}

/// A caller's Kimi id is kept only with a decimal index: anything else after the colon
/// (here the call's own closing token) would break the call.
#[test]
fn kimi_ids_keep_only_decimal_indexes() {
    let call = |id: &str| Call {
        id: id.to_owned(),
        name: "f".to_owned(),
        arguments: object(json!({"a": 1})),
    };
    let kimi = Renderer::new(Dialect::Kimi);
    assert_eq!(
        kimi.call(&call("functions.f:<|tool_call_end|>")).unwrap(),
        "<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{\"a\":1}<|tool_call_end|>"
    );
    assert_eq!(
        kimi.call(&call("functions.f:x")).unwrap(),
        "<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{\"a\":1}<|tool_call_end|>"
    );
    assert_eq!(
        kimi.call(&call("functions.f:12")).unwrap(),
        "<|tool_call_begin|>functions.f:12<|tool_call_argument_begin|>{\"a\":1}<|tool_call_end|>"
    );
}

/// Muse: a tool named after a recipient that makes a text message (`to=user`) would read
/// back as text, so it is refused; any other name is a tool message.
#[test]
fn muse_refuses_a_tool_named_as_a_text_recipient() {
    let muse = Renderer::new(Dialect::Muse);
    for name in ["self", "user", "commentary", "developer"] {
        let call = Call::new(name, object(json!({})));
        assert!(muse.call(&call).is_err(), "{name}");
    }
    assert!(muse.call(&Call::new("users", object(json!({})))).is_ok());
}
