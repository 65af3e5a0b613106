//! A counting global allocator proves that feeding chunks through the core allocates
//! nothing, in every phase (prose, reasoning, call bodies, held-back delimiters).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use inband::{CallEnd, Dialect, Options, Piece, Scanner, Sink, Span};

/// Counts allocations made by the current thread (tests run in parallel).
pub struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: every method forwards to `System` unchanged; the counter is a plain
// thread-local `Cell` that never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: same contract as ours.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

pub(crate) fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

/// Counts what it sees without allocating.
#[derive(Default)]
struct Counter {
    bytes: u64,
    complete: u32,
}

impl Sink for Counter {
    fn text(&mut self, _: Span, text: &[u8]) {
        self.bytes += text.len() as u64;
    }
    fn reasoning(&mut self, _: Span, text: &[u8]) {
        self.bytes += text.len() as u64;
    }
    fn tool_args(&mut self, _: Span, _: u32, json: &[u8]) {
        self.bytes += json.len() as u64;
    }
    fn tool_value(&mut self, _: Span, _: u32, _: Piece, bytes: &[u8]) {
        self.bytes += bytes.len() as u64;
    }
    fn tool_end(&mut self, _: Span, _: u32, end: CallEnd) {
        self.complete += u32::from(end == CallEnd::Complete);
    }
}

#[test]
fn feeding_allocates_nothing() {
    let call = "<tool_call>\n{\"name\": \"write\", \"arguments\": {\"path\": \"a.rs\", \"body\": \"x = \\\"</tool_call>\\\"\"}}\n</tool_call>\n";
    let input = format!(
        "<think>plan <tool_ca it</think>Prose with < and <tool. {}",
        call.repeat(50)
    );
    let input = input.as_bytes();
    for size in [1, 3, 4, 16, input.len()] {
        let mut scanner = Scanner::new(Dialect::Qwen3, Options::default());
        let mut counter = Counter::default();
        let before = allocations();
        for chunk in input.chunks(size) {
            scanner.feed(chunk, &mut counter).unwrap();
        }
        scanner.finish(&mut counter).unwrap();
        assert_eq!(allocations() - before, 0, "{size}-byte chunks allocated");
        assert_eq!(counter.complete, 50);
    }
}

#[test]
fn feeding_gemma_allocates_nothing() {
    let call = "<|tool_call>call:write{path:<|\"|>a.rs<|\"|>,body:<|\"|>x = <|\"|><tool_call|><|\"|>;<|\"|>,n:[1,{k:true}],s:'q'}<tool_call|>\n";
    let input = format!(
        "<|channel>thought\nplan <|tool_ca it<channel|>Prose with < and <|. {}",
        call.repeat(50)
    );
    let input = input.as_bytes();
    for size in [1, 3, 4, 16, input.len()] {
        let mut scanner = Scanner::new(Dialect::Gemma, Options::default());
        let mut counter = Counter::default();
        let before = allocations();
        for chunk in input.chunks(size) {
            scanner.feed(chunk, &mut counter).unwrap();
        }
        scanner.finish(&mut counter).unwrap();
        assert_eq!(allocations() - before, 0, "{size}-byte chunks allocated");
        assert_eq!(counter.complete, 50);
    }
}

#[test]
fn feeding_gemini_allocates_nothing() {
    let call = "```tool_code\nprint(default_api.write(path='a.rs', body=\"\"\"x = \")\n```\n\"\"\", n=[1, {'k': True}], r=r'\\d'))\n```\n";
    let input = format!(
        "```thinking\nplan ``` it\n```rs\nfn f() {{}}\n```\n```Prose with ` and ``. {}",
        call.repeat(50)
    );
    let input = input.as_bytes();
    for size in [1, 3, 4, 16, input.len()] {
        let mut scanner = Scanner::new(Dialect::Gemini, Options::default());
        let mut counter = Counter::default();
        let before = allocations();
        for chunk in input.chunks(size) {
            scanner.feed(chunk, &mut counter).unwrap();
        }
        scanner.finish(&mut counter).unwrap();
        assert_eq!(allocations() - before, 0, "{size}-byte chunks allocated");
        assert_eq!(counter.complete, 50);
    }
}
