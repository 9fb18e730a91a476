//! Hostile templates end in an error, quickly, never in a panic, a hang or an abort; real
//! templates render as before, far inside their bounds.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::*;

/// Longer than any bounded render takes, even on a loaded machine.
const TIMEOUT: Duration = Duration::from_secs(30);

fn conversation() -> Vec<ChatMessage> {
    vec![
        ChatMessage::system("Be brief."),
        ChatMessage::user("Hi"),
        ChatMessage::assistant("Hello!"),
        ChatMessage::user("What is 2 + 2?"),
    ]
}

/// Compiles and renders `source` on a thread of its own: a panic (caught there) or no answer
/// within [`TIMEOUT`] fails the test with a message instead of crashing or hanging it.
fn render_guarded(source: &str, max_output_bytes: usize) -> Result<String> {
    let owned = source.to_owned();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let outcome = std::panic::catch_unwind(move || {
            let mut template = ChatTemplate::new(owned, "<s>", "</s>")?;
            template.set_max_output_bytes(max_output_bytes);
            template.render(&conversation(), true)
        });
        let _ = tx.send(outcome.map_err(|panic| panic_message(panic.as_ref()).to_owned()));
    });
    match rx.recv_timeout(TIMEOUT) {
        Ok(Ok(result)) => result,
        Ok(Err(panic)) => panic!("{source}: panicked: {panic}"),
        Err(_) => panic!("{source}: no result within {TIMEOUT:?}"),
    }
}

#[test]
fn hostile_templates_fail_quickly_with_an_error() {
    let cases = [
        (
            "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
            "budget of",
        ),
        ("{{ 'a' | indent(2**63) }}", "indent"),
        ("{{ 'a' | indent(2**40) }}", "indent"),
        (
            "{{ 'a\nb\nc' | indent(width=2**40, first=true) }}",
            "indent",
        ),
        ("{{ messages | tojson(indent=2**63) }}", "tojson"),
        ("{{ messages | tojson(indent=2**40) }}", "tojson"),
        (
            "{{ ('x' * 100000000).replace('x', 'x' * 100000000) }}",
            "replace",
        ),
        (
            "{{ ('x' * 100000000) | replace('x', 'x' * 100000000) }}",
            "replace",
        ),
        ("{{ ('x' * 1000).replace('', 'y' * 1000000) }}", "replace"),
        ("{{ '%99999999999s' | format('x') }}", "format"),
        ("{{ '{:>99999999999}'.format('x') }}", "format"),
        ("{{ '%.99999999999f' | format(1.5) }}", "format"),
        ("{{ 'ab'.join([''] * 2**40) }}", "items"),
        ("{{ range(10) | join('x' * 100000000) }}", "join"),
        ("{{ ([1] * 2**40) | list | length }}", "items"),
        (
            "{{ ((range(1000) | list) * 2000) | sort | first }}",
            "items",
        ),
        ("{{ ([[1] * 2**40]) | join }}", "items"),
        ("{{ [1] * 2**40 }}", "items"),
        ("{{ {'a': [[1] * 2**40]} }}", "items"),
        ("{% set x %}{{ [[1] * 2**40] }}{% endset %}", "items"),
        ("{{ 'ab'.startswith(('a',) * 2**40) }}", "items"),
        ("{{ [1, 2] | batch(2**40) }}", "count"),
        ("{{ [1, 2] | slice(2**40) }}", "count"),
    ];
    for (source, says) in cases {
        let start = Instant::now();
        let err = render_guarded(source, MAX_RENDERED_BYTES)
            .expect_err(source)
            .to_string();
        assert!(err.contains(says), "{source}: {err}");
        assert!(start.elapsed() < TIMEOUT, "{source}: {:?}", start.elapsed());
    }
}

#[test]
fn running_out_of_instructions_is_its_own_error() {
    let err = render_guarded(
        "{% for i in range(100000) %}{% for j in range(100000) %}{{ j }}{% endfor %}{% endfor %}",
        MAX_RENDERED_BYTES,
    )
    .unwrap_err();
    assert!(
        matches!(&err, TokenizerError::TemplateAborted(m) if m.contains("budget of")),
        "{err}"
    );
}

#[test]
fn output_past_the_limit_is_refused_before_it_is_kept() {
    // 100 MB in 100,000 steps: well inside the instruction budget, past the output limit.
    let flood = "{% for i in range(100000) %}{{ 'x' * 1000 }}{% endfor %}";
    let err = render_guarded(flood, MAX_RENDERED_BYTES).unwrap_err();
    assert!(
        matches!(err, TokenizerError::RenderTooLarge { limit } if limit == MAX_RENDERED_BYTES),
        "{err}"
    );
    // The engine's lower limit applies the same way, and a text that fits still renders.
    let err = render_guarded("{{ 'x' * 1001 }}", 1000).unwrap_err();
    assert!(
        matches!(err, TokenizerError::RenderTooLarge { limit: 1000 }),
        "{err}"
    );
    assert_eq!(
        render_guarded("{{ 'x' * 1000 }}", 1000).unwrap().len(),
        1000
    );
}

#[test]
fn a_panic_inside_the_interpreter_fails_the_render_not_the_thread() {
    let mut template = ChatTemplate::new("a{{ boom() }}", "", "").unwrap();
    template
        .env
        .add_function("boom", || -> String { panic!("interpreter bug") });
    let err = template.render(&conversation(), true).unwrap_err();
    assert!(
        matches!(&err, TokenizerError::TemplateAborted(m) if m.contains("interpreter bug")),
        "{err}"
    );
}

#[test]
fn bounded_filters_and_methods_still_do_their_work() {
    let cases = [
        ("{{ 'a-b-c'.replace('-', '+') }}", "a+b+c"),
        ("{{ 'a-b-c'.replace('-', '+', 1) }}", "a+b-c"),
        ("{{ 'a-b' | replace('-', '--') }}", "a--b"),
        ("{{ '{}, {}!'.format('Hello', 'you') }}", "Hello, you!"),
        ("{{ '%s=%03d' | format('n', 7) }}", "n=007"),
        ("{{ ', '.join(['a', 'b']) }}", "a, b"),
        ("{{ ['a', 1] | join('/') }}", "a/1"),
        ("{{ 'a\nb' | indent(2) }}", "a\n  b"),
        ("{{ 'a\nb' | indent(width=1, first=true) }}", " a\n b"),
        ("{{ [3, 1, 2] | sort | join }}", "123"),
        ("{{ range(5) | batch(2) | list | length }}", "3"),
        ("{{ [1, 2, 3] | slice(2) | first | join }}", "12"),
        ("{{ {'a': [1, 2]} | tojson }}", r#"{"a": [1, 2]}"#),
        ("{{ [1] | tojson(indent=2) }}", "[\n  1\n]"),
        // Jinja2's `iterable`: not none, not a number; undefined is.
        (
            "{{ none is iterable }}{{ 1 is iterable }}{{ [] is iterable }}{{ 'a' is iterable }}\
             {{ nothing is iterable }}",
            "FalseFalseTrueTrueTrue",
        ),
        (
            "{{ messages | map(attribute='role') | join(',') }}",
            "system,user,assistant,user",
        ),
        (
            "{{ messages | selectattr('role', 'eq', 'user') | list | length }}",
            "2",
        ),
    ];
    for (source, want) in cases {
        assert_eq!(
            render_guarded(source, MAX_RENDERED_BYTES).unwrap(),
            want,
            "{source}"
        );
    }
}

/// The default model's template (SmolLM2; the llama, qwen and smollm3 fixtures carry it too).
const SMOLLM2: &str = "{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}{{ '<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n' }}{% endif %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}";

/// The gemma2 and gemma3 fixtures' template.
const GEMMA_FIXTURE: &str = "{{ bos_token }}{%- if messages[0]['role'] == 'system' -%}{%- set first_user_prefix = messages[0]['content'] + '\n\n' -%}{%- set loop_messages = messages[1:] -%}{%- else -%}{%- set first_user_prefix = '' -%}{%- set loop_messages = messages -%}{%- endif -%}{%- for message in loop_messages -%}{%- if message['role'] == 'assistant' -%}{%- set role = 'model' -%}{%- else -%}{%- set role = message['role'] -%}{%- endif -%}{{ '<start_of_turn>' + role + '\n' + (first_user_prefix if loop.first else '') + message['content'] | trim + '<end_of_turn>\n' }}{%- endfor -%}{%- if add_generation_prompt -%}{{ '<start_of_turn>model\n' }}{%- endif -%}";

/// The phi3 fixtures' template.
const PHI3_FIXTURE: &str = "{% for message in messages %}{{ '<|' + message['role'] + '|>' + '\n' + message['content'] + '<|end|>' + '\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|assistant|>' + '\n' }}{% endif %}";

/// Gemma's published template: refuses a system turn and turns out of order.
const GEMMA: &str = "{{ bos_token }}{% if messages[0]['role'] == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}{% for message in messages %}{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}{% if (message['role'] == 'assistant') %}{% set role = 'model' %}{% else %}{% set role = message['role'] %}{% endif %}{{ '<start_of_turn>' + role + '\n' + message['content'] | trim + '<end_of_turn>\n' }}{% endfor %}{% if add_generation_prompt %}{{'<start_of_turn>model\n'}}{% endif %}";

/// Mistral's: turns must alternate from a user turn (so a system turn first is refused).
const MISTRAL: &str = "{{ bos_token }}{% for message in messages %}{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}{% if message['role'] == 'user' %}{{ '[INST] ' + message['content'] + ' [/INST]' }}{% elif message['role'] == 'assistant' %}{{ message['content'] + eos_token}}{% else %}{{ raise_exception('Only user and assistant roles are supported!') }}{% endif %}{% endfor %}";

/// Llama 3's.
const LLAMA3: &str = "{% set loop_messages = messages %}{% for message in loop_messages %}{% set content = '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n'+ message['content'] | trim + '<|eot_id|>' %}{% if loop.index0 == 0 %}{% set content = bos_token + content %}{% endif %}{{ content }}{% endfor %}{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{% endif %}";

/// Qwen 2.5's, without its tool-call branches.
const QWEN25: &str = "{%- if messages[0]['role'] == 'system' %}\n    {{- '<|im_start|>system\n' + messages[0]['content'] + '<|im_end|>\n' }}\n{%- else %}\n    {{- '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n' }}\n{%- endif %}\n{%- for message in messages %}\n    {%- if (message.role == \"user\") or (message.role == \"system\" and not loop.first) or (message.role == \"assistant\" and not message.tool_calls) %}\n        {{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>' + '\n' }}\n    {%- elif message.role == \"tool\" %}\n        {{- '<|im_start|>user\n<tool_response>\n' + message.content + '\n</tool_response><|im_end|>\n' }}\n    {%- endif %}\n{%- endfor %}\n{%- if add_generation_prompt %}\n    {{- '<|im_start|>assistant\n' }}\n{%- endif %}\n";

/// Real templates pass the load check and use a tiny part of their budget, on a short and on
/// a long conversation (the budget's headroom is what lets unusual real templates through).
#[test]
fn real_templates_load_and_render_far_inside_their_budget() {
    let long: Vec<ChatMessage> = (0..400)
        .map(|i| match i % 2 {
            0 => ChatMessage::user(format!("question {i}")),
            _ => ChatMessage::assistant(format!("answer {i}")),
        })
        .collect();
    for (name, source) in [
        ("smollm2", SMOLLM2),
        ("gemma fixture", GEMMA_FIXTURE),
        ("phi3 fixture", PHI3_FIXTURE),
        ("gemma", GEMMA),
        ("mistral", MISTRAL),
        ("llama3", LLAMA3),
        ("qwen2.5", QWEN25),
        ("chatml", CHATML_TEMPLATE),
    ] {
        let template = ChatTemplate::new(source, "<s>", "</s>").unwrap();
        template
            .check_renders()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let short = conversation()[1..].to_vec();
        for messages in [&short, &long] {
            let report = template.render_counted(messages, true).unwrap();
            assert!(report.text.contains("Hi") || report.text.contains("question"));
            assert!(report.fuel_used > 0, "{name}: fuel is not counted");
            // A thousandfold headroom on the short conversation, twentyfold per message.
            let headroom = if messages.len() < 10 { 1000 } else { 20 };
            assert!(
                report.fuel_used * headroom < report.fuel_budget,
                "{name}: {} of {} instructions for {} messages",
                report.fuel_used,
                report.fuel_budget,
                messages.len()
            );
        }
    }
}

#[test]
fn templates_that_refuse_a_system_turn_still_load() {
    for source in [GEMMA, MISTRAL] {
        let template = ChatTemplate::new(source, "<s>", "</s>").unwrap();
        template.check_renders().unwrap();
        let err = template.render(&conversation(), true).unwrap_err();
        assert!(matches!(err, TokenizerError::Template(_)), "{err}");
    }
}

#[test]
fn the_load_check_refuses_what_renders_nothing_within_bounds() {
    let refused = |source: &str| {
        ChatTemplate::new(source, "", "")
            .unwrap()
            .check_renders()
            .unwrap_err()
            .to_string()
    };
    let err =
        refused("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}");
    assert!(
        err.contains("tokenizer.chat_template") && err.contains("budget of"),
        "{err}"
    );
    let err = refused("{{ 'x' * 100000000 }}");
    assert!(
        err.contains("tokenizer.chat_template") && err.contains("exceeds"),
        "{err}"
    );
    let err = refused("{{ raise_exception('never') }}");
    assert!(
        err.contains("tokenizer.chat_template") && err.contains("never"),
        "{err}"
    );
    // A template that only misbehaves on some input passes: requests still meet the bounds.
    ChatTemplate::new(
        "{% if messages[0].content == 'boom' %}{{ 'x' * 100000000 }}{% endif %}ok",
        "",
        "",
    )
    .unwrap()
    .check_renders()
    .unwrap();
}
