/*
 * The test driver of the C ABI (with misuse.c), compiled by capi/tests/c_programs.rs as
 * C99 (gcc) and as C++11 (g++), plain, with AddressSanitizer + UndefinedBehaviorSanitizer,
 * and under valgrind. Modes:
 *
 *   driver corpus MANIFEST OUTDIR   each manifest line "name<TAB>dialect<TAB>input<TAB>tools
 *                                   or -<TAB>starts_in_reasoning 0|1": writes the events of
 *                                   level 1 and the deltas of level 2, whole and one byte at
 *                                   a time, to OUTDIR/name.{l1.whole,l1.bytes,l2.whole,
 *                                   l2.bytes,l2.hold}; the Rust test compares them with the
 *                                   Rust API's output.
 *   driver misuse                   NULL pointers, unknown dialects, wrong order, re-entry,
 *                                   double free: each must get its error code (misuse.c).
 *   driver alloc MANIFEST           (built with -DINBAND_COUNT_ALLOC and
 *                                   -Wl,--wrap=malloc,...) level 1 over every case, whole and
 *                                   byte by byte, must not allocate once.
 *
 * Exit status 0 when every check passed; else 1 with a message on stderr.
 */
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int failures = 0;

/* ---- counting allocator (alloc mode) ---------------------------------------------- */

#ifdef INBAND_COUNT_ALLOC
static long allocations = 0;
#ifdef __cplusplus
extern "C" {
#endif
void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *ptr, size_t size);
int __real_posix_memalign(void **ptr, size_t align, size_t size);
void *__real_aligned_alloc(size_t align, size_t size);
void *__wrap_malloc(size_t size) { allocations++; return __real_malloc(size); }
void *__wrap_calloc(size_t n, size_t size) { allocations++; return __real_calloc(n, size); }
void *__wrap_realloc(void *ptr, size_t size) { allocations++; return __real_realloc(ptr, size); }
int __wrap_posix_memalign(void **ptr, size_t align, size_t size) {
    allocations++;
    return __real_posix_memalign(ptr, align, size);
}
void *__wrap_aligned_alloc(size_t align, size_t size) {
    allocations++;
    return __real_aligned_alloc(align, size);
}
#ifdef __cplusplus
}
#endif
#endif

/* ---- files ------------------------------------------------------------------------- */

/* The whole file at `path` (malloc'd, NUL-terminated; length in *len); exits on failure. */
static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    long size;
    char *buf;
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = (char *)malloc((size_t)size + 1);
    if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    buf[size] = '\0';
    fclose(f);
    *len = (size_t)size;
    return buf;
}

static FILE *open_out(const char *dir, const char *name, const char *suffix) {
    char path[4096];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, suffix);
    f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
    return f;
}

/* ---- level 1: events as text lines --------------------------------------------------- */

/* Bytes as text: printable ASCII as is, a backslash doubled, anything else \xHH. */
static void put_bytes(FILE *out, const uint8_t *bytes, size_t len) {
    size_t i;
    for (i = 0; i < len; i++) {
        uint8_t b = bytes[i];
        if (b == '\\') {
            fputs("\\\\", out);
        } else if (b >= 0x20 && b < 0x7f) {
            fputc(b, out);
        } else {
            fprintf(out, "\\x%02x", b);
        }
    }
}

static void head(FILE *out, const char *kind, inband_span_t span) {
    fprintf(out, "%s %llu %llu", kind, (unsigned long long)span.start,
            (unsigned long long)span.end);
}

static void on_text(void *user, inband_span_t span, const uint8_t *text, size_t len) {
    FILE *out = (FILE *)user;
    head(out, "text", span);
    fputc(' ', out);
    put_bytes(out, text, len);
    fputc('\n', out);
}

static void on_reasoning(void *user, inband_span_t span, const uint8_t *text, size_t len) {
    FILE *out = (FILE *)user;
    head(out, "reasoning", span);
    fputc(' ', out);
    put_bytes(out, text, len);
    fputc('\n', out);
}

static void on_markup(void *user, inband_span_t span, const char *kind, size_t kind_len,
                      const uint8_t *bytes, size_t len) {
    FILE *out = (FILE *)user;
    head(out, "markup", span);
    fprintf(out, " %.*s ", (int)kind_len, kind);
    put_bytes(out, bytes, len);
    fputc('\n', out);
}

static void on_reasoning_start(void *user, inband_span_t span) {
    head((FILE *)user, "reasoning_start", span);
    fputc('\n', (FILE *)user);
}

static void on_reasoning_end(void *user, inband_span_t span) {
    head((FILE *)user, "reasoning_end", span);
    fputc('\n', (FILE *)user);
}

static void on_tool_start(void *user, inband_span_t span, uint32_t call, const uint8_t *name,
                          size_t name_len, bool provisional) {
    FILE *out = (FILE *)user;
    head(out, "tool_start", span);
    fprintf(out, " %u ", call);
    if (name) {
        fputc('=', out);
        put_bytes(out, name, name_len);
    } else {
        fputc('-', out);
    }
    fprintf(out, " %d\n", provisional ? 1 : 0);
}

static void call_bytes(FILE *out, const char *kind, inband_span_t span, uint32_t call,
                       const uint8_t *bytes, size_t len) {
    head(out, kind, span);
    fprintf(out, " %u ", call);
    put_bytes(out, bytes, len);
    fputc('\n', out);
}

static void on_tool_id(void *user, inband_span_t span, uint32_t call, const uint8_t *id,
                       size_t len) {
    call_bytes((FILE *)user, "tool_id", span, call, id, len);
}

static void on_tool_name(void *user, inband_span_t span, uint32_t call, const uint8_t *name,
                         size_t len) {
    call_bytes((FILE *)user, "tool_name", span, call, name, len);
}

static void on_tool_args(void *user, inband_span_t span, uint32_t call, const uint8_t *json,
                         size_t len) {
    call_bytes((FILE *)user, "tool_args", span, call, json, len);
}

static void on_tool_param(void *user, inband_span_t span, uint32_t call, const uint8_t *key,
                          size_t key_len, const char *kind, size_t kind_len) {
    FILE *out = (FILE *)user;
    head(out, "tool_param", span);
    fprintf(out, " %u %.*s ", call, (int)kind_len, kind);
    put_bytes(out, key, key_len);
    fputc('\n', out);
}

static void on_tool_value(void *user, inband_span_t span, uint32_t call, const char *piece,
                          size_t piece_len, const uint8_t *bytes, size_t len) {
    FILE *out = (FILE *)user;
    head(out, "tool_value", span);
    fprintf(out, " %u %.*s ", call, (int)piece_len, piece);
    put_bytes(out, bytes, len);
    fputc('\n', out);
}

static void on_tool_param_end(void *user, inband_span_t span, uint32_t call) {
    head((FILE *)user, "tool_param_end", span);
    fprintf((FILE *)user, " %u\n", call);
}

static void on_tool_end(void *user, inband_span_t span, uint32_t call, inband_call_end_t end) {
    head((FILE *)user, "tool_end", span);
    fprintf((FILE *)user, " %u %u\n", call, end);
}

static void on_fabricated_result(void *user, inband_span_t span) {
    head((FILE *)user, "fabricated_result", span);
    fputc('\n', (FILE *)user);
}

static void on_diagnostic(void *user, inband_span_t span, const char *code, size_t code_len,
                          const char *message, size_t message_len) {
    head((FILE *)user, "diagnostic", span);
    fprintf((FILE *)user, " %.*s %.*s\n", (int)code_len, code, (int)message_len, message);
}

static inband_callbacks_t printing_callbacks(void) {
    inband_callbacks_t cb;
    memset(&cb, 0, sizeof cb);
    cb.text = on_text;
    cb.reasoning = on_reasoning;
    cb.markup = on_markup;
    cb.reasoning_start = on_reasoning_start;
    cb.reasoning_end = on_reasoning_end;
    cb.tool_start = on_tool_start;
    cb.tool_id = on_tool_id;
    cb.tool_name = on_tool_name;
    cb.tool_args = on_tool_args;
    cb.tool_param = on_tool_param;
    cb.tool_value = on_tool_value;
    cb.tool_param_end = on_tool_param_end;
    cb.tool_end = on_tool_end;
    cb.fabricated_result = on_fabricated_result;
    cb.diagnostic = on_diagnostic;
    return cb;
}

/* Feeds `input` whole (step 0) or in `step`-byte chunks, then finishes. */
static void scan(inband_scanner_t *scanner, const char *input, size_t len, size_t step,
                 const inband_callbacks_t *cb, void *user) {
    size_t at = 0;
    if (step == 0) {
        step = len;
    }
    while (at < len) {
        size_t n = len - at < step ? len - at : step;
        EXPECT_STATUS(inband_scanner_feed(scanner, (const uint8_t *)input + at, n, cb, user),
                      INBAND_OK);
        at += n;
    }
    EXPECT_STATUS(inband_scanner_finish(scanner, cb, user), INBAND_OK);
}

/* ---- level 2: deltas as JSON lines --------------------------------------------------- */

static void deltas(inband_dialect_t dialect, const inband_delta_options_t *options,
                   const char *input, size_t len, size_t step, FILE *out) {
    inband_deltas_t *d = NULL;
    inband_finish_t fin;
    size_t at = 0;
    EXPECT_STATUS(inband_deltas_new(dialect, options, &d), INBAND_OK);
    if (!d) {
        return;
    }
    if (step == 0) {
        step = len;
    }
    while (at < len) {
        size_t n = len - at < step ? len - at : step;
        const char *json = NULL;
        size_t json_len = 0;
        EXPECT_STATUS(inband_deltas_feed(d, (const uint8_t *)input + at, n, &json, &json_len),
                      INBAND_OK);
        if (json) {
            CHECK(strlen(json) == json_len, "delta length %zu vs strlen %zu", json_len,
                  strlen(json));
            fprintf(out, "%s\n", json);
        }
        at += n;
    }
    memset(&fin, 0, sizeof fin);
    EXPECT_STATUS(inband_deltas_finish(d, &fin), INBAND_OK);
    if (fin.delta && fin.completion && fin.finish_reason) {
        CHECK(strlen(fin.delta) == fin.delta_len, "final delta length");
        CHECK(strlen(fin.completion) == fin.completion_len, "completion length");
        fprintf(out, "%s\n%s\n%s\n", fin.finish_reason, fin.delta, fin.completion);
    }
    EXPECT_STATUS(inband_deltas_free(&d), INBAND_OK);
    CHECK(d == NULL, "free clears the handle");
}

/* ---- corpus mode --------------------------------------------------------------------- */

struct case_line {
    char name[256];
    char dialect[64];
    char input[2048];
    char tools[2048];
    int starts_in_reasoning;
};

static int next_case(FILE *manifest, struct case_line *c) {
    return fscanf(manifest, "%255[^\t]\t%63[^\t]\t%2047[^\t]\t%2047[^\t]\t%d\n", c->name,
                  c->dialect, c->input, c->tools, &c->starts_in_reasoning) == 5;
}

static void run_case(const struct case_line *c, const char *outdir) {
    inband_dialect_t dialect = 0;
    inband_options_t options;
    inband_delta_options_t delta_options;
    inband_callbacks_t cb = printing_callbacks();
    size_t len = 0, tools_len = 0;
    char *input = read_file(c->input, &len);
    char *tools = strcmp(c->tools, "-") == 0 ? NULL : read_file(c->tools, &tools_len);
    void *mem = malloc(inband_scanner_size());
    inband_scanner_t *scanner = NULL;
    FILE *out;

    EXPECT_STATUS(inband_dialect_from_name(c->dialect, &dialect), INBAND_OK);
    memset(&options, 0, sizeof options);
    options.starts_in_reasoning = c->starts_in_reasoning != 0;

    /* Level 1, whole, in caller memory; then the same scanner reset, byte by byte. */
    EXPECT_STATUS(inband_scanner_init(mem, inband_scanner_size(), dialect, &options, &scanner),
                  INBAND_OK);
    CHECK(scanner == (inband_scanner_t *)mem, "init writes mem to *out");
    out = open_out(outdir, c->name, "l1.whole");
    scan(scanner, input, len, 0, &cb, out);
    fclose(out);
    EXPECT_STATUS(inband_scanner_reset(scanner), INBAND_OK);
    out = open_out(outdir, c->name, "l1.bytes");
    scan(scanner, input, len, 1, &cb, out);
    fclose(out);
    free(mem);

    /* Level 2: whole, byte by byte, and byte by byte holding calls. */
    memset(&delta_options, 0, sizeof delta_options);
    delta_options.scanner = options;
    delta_options.tools = tools;
    delta_options.tools_len = tools_len;
    delta_options.has_seed = true;
    delta_options.seed = 1;
    out = open_out(outdir, c->name, "l2.whole");
    deltas(dialect, &delta_options, input, len, 0, out);
    fclose(out);
    out = open_out(outdir, c->name, "l2.bytes");
    deltas(dialect, &delta_options, input, len, 1, out);
    fclose(out);
    delta_options.hold_calls = true;
    out = open_out(outdir, c->name, "l2.hold");
    deltas(dialect, &delta_options, input, len, 1, out);
    fclose(out);

    free(input);
    free(tools);
}

static int corpus(const char *manifest_path, const char *outdir) {
    struct case_line c;
    int n = 0;
    FILE *manifest = fopen(manifest_path, "rb");
    if (!manifest) {
        fprintf(stderr, "cannot open %s\n", manifest_path);
        return 1;
    }
    while (next_case(manifest, &c)) {
        run_case(&c, outdir);
        n++;
    }
    fclose(manifest);
    printf("corpus: %d cases\n", n);
    return n > 0 ? 0 : 1;
}

/* ---- alloc mode ---------------------------------------------------------------------- */

#ifdef INBAND_COUNT_ALLOC
static void count_text(void *user, inband_span_t span, const uint8_t *text, size_t len) {
    (void)span;
    (void)text;
    *(size_t *)user += len;
}

static void count_args(void *user, inband_span_t span, uint32_t call, const uint8_t *json,
                       size_t len) {
    (void)call;
    count_text(user, span, json, len);
}

static void count_markup(void *user, inband_span_t span, const char *kind, size_t kind_len,
                         const uint8_t *bytes, size_t len) {
    (void)kind;
    (void)kind_len;
    count_text(user, span, bytes, len);
}

static void count_value(void *user, inband_span_t span, uint32_t call, const char *piece,
                        size_t piece_len, const uint8_t *bytes, size_t len) {
    (void)piece;
    (void)piece_len;
    count_args(user, span, call, bytes, len);
}

static int alloc_check(const char *manifest_path) {
    struct case_line c;
    FILE *manifest = fopen(manifest_path, "rb");
    /* Static, aligned caller memory: the scanner needs no heap at all. */
    static union {
        long double ld;
        long long ll;
        void *p;
        unsigned char bytes[4096];
    } mem;
    inband_callbacks_t cb;
    int n = 0;
    memset(&cb, 0, sizeof cb);
    cb.text = count_text;
    cb.reasoning = count_text;
    cb.tool_args = count_args;
    cb.markup = count_markup;
    cb.tool_value = count_value;
    if (!manifest) {
        return 1;
    }
    CHECK(inband_scanner_size() <= sizeof mem.bytes, "scanner fits the static memory");
    CHECK(((uintptr_t)mem.bytes % inband_scanner_align()) == 0, "the union is aligned enough");
    while (next_case(manifest, &c)) {
        size_t len = 0, seen = 0;
        char *input = read_file(c.input, &len);
        inband_dialect_t dialect = 0;
        inband_options_t options;
        inband_scanner_t *scanner = NULL;
        long before;
        memset(&options, 0, sizeof options);
        options.starts_in_reasoning = c.starts_in_reasoning != 0;
        EXPECT_STATUS(inband_dialect_from_name(c.dialect, &dialect), INBAND_OK);
        before = allocations;
        EXPECT_STATUS(inband_scanner_init(mem.bytes, sizeof mem.bytes, dialect, &options,
                                          &scanner),
                      INBAND_OK);
        scan(scanner, input, len, 0, &cb, &seen);
        EXPECT_STATUS(inband_scanner_reset(scanner), INBAND_OK);
        scan(scanner, input, len, 1, &cb, &seen);
        CHECK(allocations == before, "%s: %ld allocations on the level 1 path", c.name,
              allocations - before);
        /* The payloads tile the stream: every byte seen once per scan. */
        CHECK(seen == 2 * len, "%s: the callbacks saw %zu bytes of 2 x %zu", c.name, seen, len);
        free(input);
        n++;
    }
    fclose(manifest);
    /* The counter counts: the library's own allocating path (level 2) is seen. */
    {
        inband_deltas_t *d = NULL;
        long before = allocations;
        EXPECT_STATUS(inband_deltas_new(INBAND_DIALECT_HERMES, NULL, &d), INBAND_OK);
        EXPECT_STATUS(inband_deltas_free(&d), INBAND_OK);
        CHECK(allocations > before, "the counter sees the delta stream's allocations");
    }
    printf("alloc: %d cases, no allocation on the scanner path\n", n);
    return 0;
}
#endif

int main(int argc, char **argv) {
    int rc = 1;
    if (argc == 4 && strcmp(argv[1], "corpus") == 0) {
        rc = corpus(argv[2], argv[3]);
    } else if (argc == 2 && strcmp(argv[1], "misuse") == 0) {
        rc = misuse();
#ifdef INBAND_COUNT_ALLOC
    } else if (argc == 3 && strcmp(argv[1], "alloc") == 0) {
        rc = alloc_check(argv[2]);
#endif
    } else {
        fprintf(stderr, "usage: driver corpus MANIFEST OUTDIR | misuse | alloc MANIFEST\n");
        return 2;
    }
    if (failures > 0) {
        fprintf(stderr, "%d checks failed\n", failures);
        return 1;
    }
    return rc;
}
