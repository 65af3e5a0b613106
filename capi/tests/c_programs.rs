//! The C ABI from C and C++: `tests/c/driver.c` with `misuse.c`, compiled by the system's
//! gcc as C99 and by g++ as C++11 (plain, with AddressSanitizer + UndefinedBehaviorSanitizer, and with a
//! counting `malloc`), runs every corpus case through both levels, whole and one byte at a
//! time, and its output must equal what the Rust API gives for the same feeding; its misuse
//! checks must get their error codes; valgrind memcheck must find nothing. A missing
//! compiler, sanitizer runtime or valgrind fails the test with what to install.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

mod reference;

/// The workspace root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The directory holding `libinband_capi.a` and `.so`: `target/PROFILE/deps`, beside this
/// test, where cargo writes every crate type of the library when it builds it for the
/// tests (`cargo build` copies them up to `target/PROFILE` as well).
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    let dir = exe
        .parent()
        .expect("target/PROFILE/deps/TEST")
        .to_path_buf();
    for lib in ["libinband_capi.a", "libinband_capi.so"] {
        assert!(
            dir.join(lib).exists(),
            "{} is missing: cargo builds it with the inband-capi crate (crate-type)",
            dir.join(lib).display()
        );
    }
    dir
}

fn work_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("capi")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the work directory");
    dir
}

/// Runs `command`, failing the test with its output unless it exits 0.
fn run(command: &mut Command, what: &str) -> Output {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run {command:?}: {e}"));
    assert!(
        output.status.success(),
        "{what} failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// A tool the tests need, present or the test fails saying how to install it.
fn require(tool: &str, install: &str) {
    let found = Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(found, "`{tool}` is not installed; {install}");
}

#[derive(Clone, Copy, PartialEq)]
enum Language {
    C,
    Cpp,
}

#[derive(Clone, Copy, PartialEq)]
enum Build {
    Plain,
    Sanitized,
    CountingMalloc,
}

/// Compiles the driver into `dir` and returns the program's path.
fn compile(language: Language, build: Build, dir: &Path) -> PathBuf {
    let (compiler, std) = match language {
        Language::C => ("gcc", "-std=c99"),
        Language::Cpp => ("g++", "-std=c++11"),
    };
    require(compiler, "install gcc and g++ (apt-get install gcc g++)");
    let exe = dir.join(format!(
        "driver-{compiler}-{}",
        match build {
            Build::Plain => "plain",
            Build::Sanitized => "asan-ubsan",
            Build::CountingMalloc => "alloc",
        }
    ));
    let mut command = Command::new(compiler);
    command
        .arg(std)
        .args(["-Wall", "-Wextra", "-pedantic", "-Werror", "-g", "-O1"]);
    command.arg("-I").arg(root().join("capi/include"));
    if language == Language::Cpp {
        command.args(["-x", "c++"]);
    }
    for source in ["driver.c", "misuse.c"] {
        command.arg(root().join("capi/tests/c").join(source));
    }
    if language == Language::Cpp {
        command.args(["-x", "none"]);
    }
    match build {
        Build::Plain => {}
        Build::Sanitized => {
            command.args([
                "-fsanitize=address,undefined",
                "-fno-sanitize-recover=all",
                "-fno-omit-frame-pointer",
            ]);
        }
        Build::CountingMalloc => {
            command.arg("-DINBAND_COUNT_ALLOC").arg(
                "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=posix_memalign,--wrap=aligned_alloc",
            );
        }
    }
    command
        .arg(lib_dir().join("libinband_capi.a"))
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&exe);
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {compiler}: {e}"));
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let hint = if build == Build::Sanitized && stderr.contains("asan") {
            "\nthe sanitizer runtimes are missing: apt-get install libasan8 libubsan1"
        } else {
            ""
        };
        panic!("{compiler} failed to build the driver:\n{stderr}{hint}");
    }
    exe
}

/// The corpus cases as driver input, written once: the manifest and the expected output.
struct Fixture {
    manifest: PathBuf,
    cases: Vec<reference::Case>,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let dir = work_dir("cases");
        let cases = reference::cases(&root());
        assert!(
            cases.len() >= 25,
            "the corpus is bundled: {} cases",
            cases.len()
        );
        let mut manifest = String::new();
        for case in &cases {
            let input = dir.join(format!("{}.input", case.name));
            std::fs::write(&input, &case.input).unwrap();
            let tools = match &case.tools {
                Some(json) => {
                    let path = dir.join(format!("{}.tools.json", case.name));
                    std::fs::write(&path, json).unwrap();
                    path.display().to_string()
                }
                None => "-".to_owned(),
            };
            manifest.push_str(&format!(
                "{}\t{}\t{}\t{tools}\t{}\n",
                case.name,
                case.dialect.name(),
                input.display(),
                u8::from(case.starts_in_reasoning)
            ));
        }
        let path = dir.join("manifest.tsv");
        std::fs::write(&path, manifest).unwrap();
        Fixture {
            manifest: path,
            cases,
        }
    })
}

/// Runs the driver's corpus mode (under `wrapper`, if any) and compares every output file
/// with the Rust API's.
fn check_corpus(exe: &Path, wrapper: &[&str], label: &str) {
    let fixture = fixture();
    let out = work_dir(&format!("out-{label}"));
    let mut command = Command::new(wrapper.first().copied().unwrap_or(exe.to_str().unwrap()));
    if !wrapper.is_empty() {
        command.args(&wrapper[1..]).arg(exe);
    }
    command.arg("corpus").arg(&fixture.manifest).arg(&out);
    sanitizer_env(&mut command);
    run(&mut command, label);
    for case in &fixture.cases {
        for (suffix, expected) in reference::outputs(case) {
            let path = out.join(format!("{}.{suffix}", case.name));
            let got = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            if got != expected {
                let line = got
                    .split(|&b| b == b'\n')
                    .zip(expected.split(|&b| b == b'\n'))
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
                panic!(
                    "{label}: {} {suffix} differs from the Rust API's at line {}:\n  C:    {}\n  Rust: {}",
                    case.name,
                    line + 1,
                    String::from_utf8_lossy(got.split(|&b| b == b'\n').nth(line).unwrap_or(b"")),
                    String::from_utf8_lossy(
                        expected.split(|&b| b == b'\n').nth(line).unwrap_or(b"")
                    ),
                );
            }
        }
    }
}

fn sanitizer_env(command: &mut Command) {
    command
        .env("ASAN_OPTIONS", "detect_leaks=1:halt_on_error=1")
        .env("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1");
}

fn check_misuse(exe: &Path, wrapper: &[&str], label: &str) {
    let mut command = Command::new(wrapper.first().copied().unwrap_or(exe.to_str().unwrap()));
    if !wrapper.is_empty() {
        command.args(&wrapper[1..]).arg(exe);
    }
    command.arg("misuse");
    sanitizer_env(&mut command);
    let output = run(&mut command, label);
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "misuse: done\n",
        "{label}"
    );
}

#[test]
fn c_and_cpp_programs_give_the_rust_api_output_and_catch_misuse() {
    let dir = work_dir("plain");
    for language in [Language::C, Language::Cpp] {
        let exe = compile(language, Build::Plain, &dir);
        let label = exe.file_name().unwrap().to_str().unwrap().to_owned();
        check_corpus(&exe, &[], &label);
        check_misuse(&exe, &[], &label);
    }
}

#[test]
fn address_and_undefined_behavior_sanitizers_find_nothing() {
    let dir = work_dir("sanitized");
    for language in [Language::C, Language::Cpp] {
        let exe = compile(language, Build::Sanitized, &dir);
        let label = exe.file_name().unwrap().to_str().unwrap().to_owned();
        check_corpus(&exe, &[], &label);
        check_misuse(&exe, &[], &label);
    }
}

#[test]
fn valgrind_memcheck_finds_nothing() {
    require("valgrind", "install it (apt-get install valgrind)");
    let dir = work_dir("valgrind");
    let valgrind = [
        "valgrind",
        "--quiet",
        "--error-exitcode=1",
        "--leak-check=full",
        "--errors-for-leak-kinds=definite,indirect,possible",
    ];
    for language in [Language::C, Language::Cpp] {
        let exe = compile(language, Build::Plain, &dir);
        let label = format!("valgrind {}", exe.file_name().unwrap().to_str().unwrap());
        check_corpus(&exe, &valgrind, &label);
        check_misuse(&exe, &valgrind, &label);
    }
}

#[test]
fn the_scanner_path_calls_malloc_not_once() {
    let dir = work_dir("alloc");
    let exe = compile(Language::C, Build::CountingMalloc, &dir);
    let output = run(
        Command::new(&exe).arg("alloc").arg(&fixture().manifest),
        "alloc",
    );
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        format!(
            "alloc: {} cases, no allocation on the scanner path\n",
            fixture().cases.len()
        )
    );
}

#[test]
fn the_header_compiles_without_warnings_in_c_and_cpp() {
    let dir = work_dir("header");
    let source = dir.join("include.c");
    std::fs::write(
        &source,
        "#include \"inband.h\"\nint main(void) { return 0; }\n",
    )
    .unwrap();
    for (compiler, std) in [
        ("gcc", "-std=c99"),
        ("gcc", "-std=c11"),
        ("g++", "-std=c++11"),
        ("g++", "-std=c++17"),
    ] {
        require(compiler, "install gcc and g++ (apt-get install gcc g++)");
        let mut command = Command::new(compiler);
        command
            .arg(std)
            .args(["-Wall", "-Wextra", "-pedantic", "-Werror", "-fsyntax-only"]);
        if compiler == "g++" {
            command.args(["-x", "c++"]);
        }
        command
            .arg("-I")
            .arg(root().join("capi/include"))
            .arg(&source);
        let output = run(&mut command, &format!("{compiler} {std}"));
        assert!(
            output.stderr.is_empty(),
            "{compiler} {std} warned: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

#[test]
fn the_server_loop_example_streams_openai_chunks_through_the_shared_library() {
    require("gcc", "install gcc (apt-get install gcc)");
    let dir = work_dir("example");
    let exe = dir.join("server_loop");
    let lib = lib_dir();
    run(
        Command::new("gcc")
            .args(["-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-I"])
            .arg(root().join("capi/include"))
            .arg(root().join("capi/examples/server_loop.c"))
            .arg("-L")
            .arg(&lib)
            .arg(format!("-Wl,-rpath,{}", lib.display()))
            .args(["-linband_capi", "-o"])
            .arg(&exe),
        "building capi/examples/server_loop.c against libinband_capi.so",
    );
    let output = run(&mut Command::new(&exe), "server_loop");
    let stdout = String::from_utf8(output.stdout).unwrap();
    let events: Vec<&str> = stdout
        .split("\n\n")
        .filter(|e| !e.is_empty())
        .map(|e| e.strip_prefix("data: ").expect("server-sent events"))
        .collect();
    assert_eq!(events.last(), Some(&"[DONE]"));
    let (mut content, mut reasoning, mut arguments, mut names, mut reasons) = (
        String::new(),
        String::new(),
        String::new(),
        Vec::new(),
        Vec::new(),
    );
    for event in &events[..events.len() - 1] {
        let chunk: serde_json::Value = serde_json::from_str(event).expect(event);
        let choice = &chunk["choices"][0];
        let delta = &choice["delta"];
        content += delta["content"].as_str().unwrap_or("");
        reasoning += delta["reasoning_content"].as_str().unwrap_or("");
        for call in delta["tool_calls"].as_array().into_iter().flatten() {
            assert_eq!(call["index"], 0);
            if let Some(name) = call["function"]["name"].as_str() {
                names.push(name.to_owned());
            }
            arguments += call["function"]["arguments"].as_str().unwrap();
        }
        if let Some(reason) = choice["finish_reason"].as_str() {
            reasons.push(reason.to_owned());
        }
    }
    assert_eq!(reasoning.trim(), "The user wants the weather in Paris.");
    assert_eq!(content.trim(), "Let me check.");
    assert_eq!(names, ["get_weather"]);
    assert_eq!(arguments, r#"{"city": "Paris", "unit": "°C"}"#);
    assert_eq!(reasons, ["tool_calls"]);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with(
            "model Qwen/Qwen3-8B speaks qwen3\ncompletion: {\"content\":\"Let me check.\""
        ),
        "{stderr}"
    );
}
