/*
 * The misuse checks of the C ABI's test driver (`driver misuse`): NULL pointers, unknown
 * dialects, wrong order, re-entry from a callback, a second thread during a call, lengths
 * over PTRDIFF_MAX, double free, bad tools JSON; each must get its error code. Then the
 * delta handle's memory options, a call that breaks after it was sent, and a scanner on
 * the stack. Compiled as C99 and as C++11 (which adds a RAII check).
 */
#include "check.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
#include <memory>
#include <string>
#endif

struct reentry {
    inband_scanner_t *scanner;
    inband_status_t feed, reset, finish, free_;
};

static void reenter(void *user, inband_span_t span, const uint8_t *text, size_t len) {
    struct reentry *r = (struct reentry *)user;
    inband_callbacks_t none;
    inband_scanner_t *copy = r->scanner;
    (void)span;
    memset(&none, 0, sizeof none);
    r->feed = inband_scanner_feed(r->scanner, text, len, &none, NULL);
    r->reset = inband_scanner_reset(r->scanner);
    r->finish = inband_scanner_finish(r->scanner, &none, NULL);
    r->free_ = inband_scanner_free(&copy);
}

/* Re-initializing the scanner's memory from its own callback is refused; the feed goes on. */
struct reinit {
    void *mem;
    inband_status_t init;
    size_t text;
};

static void reinit_text(void *user, inband_span_t span, const uint8_t *text, size_t len) {
    struct reinit *r = (struct reinit *)user;
    (void)span;
    (void)text;
    r->init = inband_scanner_init(r->mem, inband_scanner_size(), INBAND_DIALECT_GLM, NULL, NULL);
    r->text += len;
}

/* A second thread calls the scanner while the first is inside one of its callbacks. */
struct two_threads {
    inband_scanner_t *scanner;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int phase; /* 1: the first thread is in its callback; 2: the second thread is done */
    inband_status_t feed, reset, free_;
};

static void *second_thread(void *arg) {
    struct two_threads *t = (struct two_threads *)arg;
    inband_callbacks_t none;
    inband_scanner_t *copy;
    memset(&none, 0, sizeof none);
    pthread_mutex_lock(&t->lock);
    while (t->phase != 1) {
        pthread_cond_wait(&t->cond, &t->lock);
    }
    pthread_mutex_unlock(&t->lock);
    copy = t->scanner;
    t->feed = inband_scanner_feed(t->scanner, (const uint8_t *)"x", 1, &none, NULL);
    t->reset = inband_scanner_reset(t->scanner);
    t->free_ = inband_scanner_free(&copy);
    pthread_mutex_lock(&t->lock);
    t->phase = 2;
    pthread_cond_signal(&t->cond);
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

static void wait_for_second(void *user, inband_span_t span, const uint8_t *text, size_t len) {
    struct two_threads *t = (struct two_threads *)user;
    (void)span;
    (void)text;
    (void)len;
    pthread_mutex_lock(&t->lock);
    if (t->phase == 0) {
        t->phase = 1;
        pthread_cond_signal(&t->cond);
        while (t->phase != 2) {
            pthread_cond_wait(&t->cond, &t->lock);
        }
    }
    pthread_mutex_unlock(&t->lock);
}

/* A scanner in stack memory, sized and aligned by the header's compile-time constants. */
static void stack_scanner(void) {
    union {
        unsigned char bytes[INBAND_SCANNER_SIZE];
        uint64_t align;
    } mem;
    inband_scanner_t *s = NULL;
    inband_callbacks_t none;
    uint64_t offset = 0;
    memset(&none, 0, sizeof none);
    CHECK(inband_scanner_size() <= INBAND_SCANNER_SIZE, "size %zu", inband_scanner_size());
    CHECK(inband_scanner_align() <= INBAND_SCANNER_ALIGN, "align %zu", inband_scanner_align());
    CHECK(INBAND_SCANNER_ALIGN == sizeof(uint64_t), "the union's alignment");
    EXPECT_STATUS(inband_scanner_init(&mem, sizeof mem, INBAND_DIALECT_KIMI, NULL, &s), INBAND_OK);
    CHECK(s == (inband_scanner_t *)&mem, "the scanner is the memory");
    EXPECT_STATUS(inband_scanner_feed(s, (const uint8_t *)"abc", 3, &none, NULL), INBAND_OK);
    EXPECT_STATUS(inband_scanner_offset(s, &offset), INBAND_OK);
    CHECK(offset == 3, "offset %llu", (unsigned long long)offset);
    EXPECT_STATUS(inband_scanner_finish(s, &none, NULL), INBAND_OK);
}

static void misuse_in_use(void) {
    inband_callbacks_t cb;
    struct reinit r;
    struct two_threads t;
    pthread_t thread;
    inband_scanner_t *s = NULL;
    uint64_t offset = 0;
    memset(&cb, 0, sizeof cb);
    memset(&r, 0, sizeof r);
    r.mem = malloc(inband_scanner_size());
    r.init = -1;
    EXPECT_STATUS(inband_scanner_init(r.mem, inband_scanner_size(), INBAND_DIALECT_HERMES, NULL,
                                      &s),
                  INBAND_OK);
    cb.text = reinit_text;
    EXPECT_STATUS(inband_scanner_feed(s, (const uint8_t *)"hello <tool", 11, &cb, &r), INBAND_OK);
    EXPECT_STATUS(r.init, INBAND_ERROR_STATE);
    CHECK(strstr(inband_last_error(), "in use") != NULL, "the message says why");
    EXPECT_STATUS(inband_scanner_finish(s, &cb, &r), INBAND_OK);
    CHECK(r.text == 11, "the hermes scanner went on: %zu text bytes", r.text);
    /* Not in a call: re-initializing starts afresh. */
    EXPECT_STATUS(inband_scanner_init(r.mem, inband_scanner_size(), INBAND_DIALECT_HERMES, NULL,
                                      NULL),
                  INBAND_OK);
    EXPECT_STATUS(inband_scanner_offset(s, &offset), INBAND_OK);
    CHECK(offset == 0, "a fresh scanner at %llu", (unsigned long long)offset);
    free(r.mem);

    memset(&t, 0, sizeof t);
    EXPECT_STATUS(inband_scanner_new(INBAND_DIALECT_QWEN3, NULL, &t.scanner), INBAND_OK);
    pthread_mutex_init(&t.lock, NULL);
    pthread_cond_init(&t.cond, NULL);
    CHECK(pthread_create(&thread, NULL, second_thread, &t) == 0, "pthread_create");
    memset(&cb, 0, sizeof cb);
    cb.text = wait_for_second;
    EXPECT_STATUS(inband_scanner_feed(t.scanner, (const uint8_t *)"hi", 2, &cb, &t), INBAND_OK);
    pthread_join(thread, NULL);
    EXPECT_STATUS(t.feed, INBAND_ERROR_STATE);
    EXPECT_STATUS(t.reset, INBAND_ERROR_STATE);
    EXPECT_STATUS(t.free_, INBAND_ERROR_STATE);
    /* Once the first thread's call returned, the second may use it. */
    EXPECT_STATUS(inband_scanner_offset(t.scanner, &offset), INBAND_OK);
    CHECK(offset == 2, "offset %llu", (unsigned long long)offset);
    EXPECT_STATUS(inband_scanner_free(&t.scanner), INBAND_OK);
    pthread_cond_destroy(&t.cond);
    pthread_mutex_destroy(&t.lock);
}

static void misuse_dialects(void) {
    inband_dialect_t d = 99;
    EXPECT_STATUS(inband_dialect_from_name(NULL, &d), INBAND_ERROR_NULL);
    EXPECT_STATUS(inband_dialect_from_name("qwen3", NULL), INBAND_ERROR_NULL);
    EXPECT_STATUS(inband_dialect_from_name("qwen4", &d), INBAND_ERROR_DIALECT);
    CHECK(strstr(inband_last_error(), "qwen4") != NULL, "the message names the dialect");
    CHECK(d == 99, "a failed lookup leaves *out");
    EXPECT_STATUS(inband_dialect_from_name("Hermes", &d), INBAND_OK);
    CHECK(d == INBAND_DIALECT_HERMES, "a dialect name in any case");
    EXPECT_STATUS(inband_dialect_from_name("SEED_OSS", &d), INBAND_OK);
    CHECK(d == INBAND_DIALECT_SEED_OSS, "_ for -");
    d = 99;
    EXPECT_STATUS(inband_dialect_from_name("seed oss", &d), INBAND_ERROR_DIALECT);
    CHECK(d == 99, "a failed lookup leaves *out");
    EXPECT_STATUS(inband_dialect_for_parser(" Hermes ", &d), INBAND_OK);
    CHECK(d == INBAND_DIALECT_HERMES, "a parser name in any case");
    EXPECT_STATUS(inband_dialect_from_name("\xff", &d), INBAND_ERROR_ARGUMENT);
    EXPECT_STATUS(inband_dialect_from_name("qwen3-coder", &d), INBAND_OK);
    CHECK(d == INBAND_DIALECT_QWEN3_CODER, "qwen3-coder is %u", d);
    CHECK(strcmp(inband_dialect_name(d), "qwen3-coder") == 0, "name of qwen3-coder");
    CHECK(inband_dialect_name(200) == NULL, "no dialect 200");
    EXPECT_STATUS(inband_dialect_for_parser("glm45", &d), INBAND_OK);
    CHECK(d == INBAND_DIALECT_GLM, "glm45 parser");
    EXPECT_STATUS(inband_dialect_for_parser("kimi_k2", &d), INBAND_OK);
    CHECK(d == INBAND_DIALECT_KIMI, "kimi_k2 parser");
    EXPECT_STATUS(inband_dialect_for_parser("nope", &d), INBAND_ERROR_DIALECT);
    EXPECT_STATUS(inband_dialect_for_model("openai/gpt-oss-120b", &d), INBAND_OK);
    CHECK(d == INBAND_DIALECT_HARMONY, "gpt-oss model");
    EXPECT_STATUS(inband_dialect_for_model("some/unknown-model", &d), INBAND_OK);
    CHECK(d == INBAND_DIALECT_XML, "the fallback");
    EXPECT_STATUS(inband_dialect_for_model(NULL, &d), INBAND_ERROR_NULL);
    CHECK(strcmp(inband_status_name(INBAND_ERROR_TOOLS), "INBAND_ERROR_TOOLS") == 0, "name");
}

static void misuse_scanner(void) {
    inband_callbacks_t none;
    inband_scanner_t *s = NULL, *owned = NULL;
    unsigned char *zeroed = (unsigned char *)calloc(1, inband_scanner_size() + 16);
    void *mem = malloc(inband_scanner_size());
    uint64_t offset = 7;
    struct reentry r;
    memset(&none, 0, sizeof none);

    EXPECT_STATUS(inband_scanner_new(99, NULL, &owned), INBAND_ERROR_DIALECT);
    CHECK(owned == NULL, "no scanner for a bad dialect");
    EXPECT_STATUS(inband_scanner_new(INBAND_DIALECT_HERMES, NULL, NULL), INBAND_ERROR_NULL);
    EXPECT_STATUS(inband_scanner_init(NULL, 4096, INBAND_DIALECT_HERMES, NULL, &s),
                  INBAND_ERROR_NULL);
    EXPECT_STATUS(inband_scanner_init(mem, inband_scanner_size() - 1, INBAND_DIALECT_HERMES,
                                      NULL, &s),
                  INBAND_ERROR_ARGUMENT);
    EXPECT_STATUS(inband_scanner_init(zeroed + 1, inband_scanner_size(), INBAND_DIALECT_HERMES,
                                      NULL, &s),
                  INBAND_ERROR_ARGUMENT);
    /* Memory that never held a scanner. */
    EXPECT_STATUS(inband_scanner_feed((inband_scanner_t *)zeroed, (const uint8_t *)"x", 1,
                                      &none, NULL),
                  INBAND_ERROR_STATE);
    EXPECT_STATUS(inband_scanner_feed(NULL, (const uint8_t *)"x", 1, &none, NULL),
                  INBAND_ERROR_NULL);
    EXPECT_STATUS(inband_scanner_init(mem, inband_scanner_size(), INBAND_DIALECT_HERMES, NULL,
                                      NULL),
                  INBAND_OK);
    s = (inband_scanner_t *)mem;
    EXPECT_STATUS(inband_scanner_feed(s, (const uint8_t *)"x", 1, NULL, NULL),
                  INBAND_ERROR_NULL);
    EXPECT_STATUS(inband_scanner_feed(s, NULL, 3, &none, NULL), INBAND_ERROR_NULL);
    EXPECT_STATUS(inband_scanner_feed(s, NULL, 0, &none, NULL), INBAND_OK);
    /* A length no buffer has (a negative number cast, SIZE_MAX) is refused, not read. */
    EXPECT_STATUS(inband_scanner_feed(s, (const uint8_t *)"x", SIZE_MAX, &none, NULL),
                  INBAND_ERROR_ARGUMENT);
    CHECK(strstr(inband_last_error(), "PTRDIFF_MAX") != NULL, "the message says why");
    EXPECT_STATUS(inband_scanner_feed(s, (const uint8_t *)"x", (size_t)PTRDIFF_MAX + 1, &none,
                                      NULL),
                  INBAND_ERROR_ARGUMENT);
    EXPECT_STATUS(inband_scanner_feed(s, (const uint8_t *)"ab", 2, &none, NULL), INBAND_OK);
    EXPECT_STATUS(inband_scanner_offset(s, &offset), INBAND_OK);
    CHECK(offset == 2, "offset %llu", (unsigned long long)offset);
    EXPECT_STATUS(inband_scanner_offset(s, NULL), INBAND_ERROR_NULL);
    /* Wrong order: feed or finish after finish, until reset. */
    EXPECT_STATUS(inband_scanner_finish(s, &none, NULL), INBAND_OK);
    EXPECT_STATUS(inband_scanner_feed(s, (const uint8_t *)"x", 1, &none, NULL),
                  INBAND_ERROR_FINISHED);
    EXPECT_STATUS(inband_scanner_finish(s, &none, NULL), INBAND_ERROR_FINISHED);
    EXPECT_STATUS(inband_scanner_reset(s), INBAND_OK);
    EXPECT_STATUS(inband_scanner_offset(s, &offset), INBAND_OK);
    CHECK(offset == 0, "reset starts from 0");
    /* Caller memory is not the library's to free. */
    EXPECT_STATUS(inband_scanner_free(&s), INBAND_ERROR_ARGUMENT);
    CHECK(s == (inband_scanner_t *)mem, "a refused free leaves the pointer");
    EXPECT_STATUS(inband_scanner_reset(NULL), INBAND_ERROR_NULL);

    /* Re-entry from a callback. */
    EXPECT_STATUS(inband_scanner_new(INBAND_DIALECT_QWEN3, NULL, &owned), INBAND_OK);
    memset(&r, 0, sizeof r);
    r.scanner = owned;
    none.text = reenter;
    EXPECT_STATUS(inband_scanner_feed(owned, (const uint8_t *)"hello", 5, &none, &r), INBAND_OK);
    EXPECT_STATUS(inband_scanner_finish(owned, &none, &r), INBAND_OK);
    EXPECT_STATUS(r.feed, INBAND_ERROR_STATE);
    EXPECT_STATUS(r.reset, INBAND_ERROR_STATE);
    EXPECT_STATUS(r.finish, INBAND_ERROR_STATE);
    EXPECT_STATUS(r.free_, INBAND_ERROR_STATE);
    /* Double free is caught: the first free clears the variable. */
    EXPECT_STATUS(inband_scanner_free(&owned), INBAND_OK);
    CHECK(owned == NULL, "free clears the pointer");
    EXPECT_STATUS(inband_scanner_free(&owned), INBAND_ERROR_NULL);
    EXPECT_STATUS(inband_scanner_free(NULL), INBAND_ERROR_NULL);
    free(mem);
    free(zeroed);
}

static void misuse_deltas(void) {
    inband_deltas_t *d = NULL;
    inband_delta_options_t options;
    inband_finish_t fin;
    const char *json = NULL;
    memset(&options, 0, sizeof options);
    memset(&fin, 0, sizeof fin);

    EXPECT_STATUS(inband_deltas_new(99, NULL, &d), INBAND_ERROR_DIALECT);
    EXPECT_STATUS(inband_deltas_new(INBAND_DIALECT_HERMES, NULL, NULL), INBAND_ERROR_NULL);
    options.tools = "[{";
    options.tools_len = 2;
    EXPECT_STATUS(inband_deltas_new(INBAND_DIALECT_HERMES, &options, &d), INBAND_ERROR_TOOLS);
    CHECK(d == NULL, "no handle for bad tools");
    options.tools = "{}";
    EXPECT_STATUS(inband_deltas_new(INBAND_DIALECT_HERMES, &options, &d), INBAND_ERROR_TOOLS);
    options.tools = NULL;
    options.tools_len = 3;
    EXPECT_STATUS(inband_deltas_new(INBAND_DIALECT_HERMES, &options, &d), INBAND_ERROR_NULL);
    options.tools = "[]";
    options.tools_len = SIZE_MAX;
    EXPECT_STATUS(inband_deltas_new(INBAND_DIALECT_HERMES, &options, &d), INBAND_ERROR_ARGUMENT);
    CHECK(d == NULL, "no handle for a tools length over PTRDIFF_MAX");
    options.tools = "[{\"type\": \"function\", \"function\": {\"name\": \"read\"}}]";
    options.tools_len = strlen(options.tools);
    EXPECT_STATUS(inband_deltas_new(INBAND_DIALECT_HERMES, &options, &d), INBAND_OK);
    EXPECT_STATUS(inband_deltas_feed(d, (const uint8_t *)"hi", 2, NULL, NULL),
                  INBAND_ERROR_NULL);
    EXPECT_STATUS(inband_deltas_feed(d, NULL, 2, &json, NULL), INBAND_ERROR_NULL);
    EXPECT_STATUS(inband_deltas_feed(NULL, (const uint8_t *)"hi", 2, &json, NULL),
                  INBAND_ERROR_NULL);
    EXPECT_STATUS(inband_deltas_feed(d, (const uint8_t *)"hi", SIZE_MAX, &json, NULL),
                  INBAND_ERROR_ARGUMENT);
    EXPECT_STATUS(inband_deltas_feed(d, (const uint8_t *)"hi", 2, &json, NULL), INBAND_OK);
    CHECK(json && strcmp(json, "{\"content\":\"hi\"}") == 0, "delta %s", json ? json : "NULL");
    EXPECT_STATUS(inband_deltas_finish(d, NULL), INBAND_ERROR_NULL);
    EXPECT_STATUS(inband_deltas_finish(d, &fin), INBAND_OK);
    CHECK(strcmp(fin.finish_reason, "stop") == 0, "finish reason %s", fin.finish_reason);
    CHECK(strcmp(fin.delta, "{}") == 0, "last delta %s", fin.delta);
    EXPECT_STATUS(inband_deltas_feed(d, (const uint8_t *)"x", 1, &json, NULL),
                  INBAND_ERROR_FINISHED);
    EXPECT_STATUS(inband_deltas_finish(d, &fin), INBAND_ERROR_FINISHED);
    CHECK(strstr(fin.completion, "\"content\":\"hi\"") != NULL, "completion %s",
          fin.completion);
    EXPECT_STATUS(inband_deltas_free(&d), INBAND_OK);
    EXPECT_STATUS(inband_deltas_free(&d), INBAND_ERROR_NULL);
    EXPECT_STATUS(inband_deltas_free(NULL), INBAND_ERROR_NULL);
}

/* Feeds `text` one byte at a time; `joined` gets the deltas' JSON other than `{}`, joined. */
static void feed_bytewise(inband_deltas_t *d, const char *text, char *joined, size_t cap) {
    size_t i, used = 0;
    joined[0] = 0;
    for (i = 0; text[i]; i++) {
        const char *json = NULL;
        size_t len = 0;
        EXPECT_STATUS(inband_deltas_feed(d, (const uint8_t *)text + i, 1, &json, &len),
                      INBAND_OK);
        if (json && strcmp(json, "{}") != 0 && used + len < cap) {
            memcpy(joined + used, json, len + 1);
            used += len;
        }
    }
}

/* The completion's memory: cut at max_response_bytes, or only the unsent part kept. */
static void deltas_memory(void) {
    inband_deltas_t *d = NULL;
    inband_delta_options_t options;
    inband_finish_t fin;
    char joined[4096];
    const char *text = "0123456789abcdefghij<tool_call>{\"name\": \"f\", \"arguments\": {}}"
                       "</tool_call>";
    memset(&options, 0, sizeof options);
    options.has_seed = true;
    options.max_response_bytes = 16;
    EXPECT_STATUS(inband_deltas_new(INBAND_DIALECT_HERMES, &options, &d), INBAND_OK);
    feed_bytewise(d, text, joined, sizeof joined);
    EXPECT_STATUS(inband_deltas_finish(d, &fin), INBAND_OK);
    CHECK(strcmp(fin.completion,
                 "{\"content\":\"0123456789abcdef\",\"reasoning\":null,\"tool_calls\":[],"
                 "\"incomplete_calls\":[],\"diagnostics\":[{\"code\":\"response_too_long\","
                 "\"message\":\"the response is longer than max_response_bytes; the rest was "
                 "left out\",\"span\":[16,16]}]}") == 0,
          "cut completion %s", fin.completion);
    CHECK(strcmp(fin.finish_reason, "stop") == 0, "cut: %s", fin.finish_reason);
    EXPECT_STATUS(inband_deltas_free(&d), INBAND_OK);

    options.max_response_bytes = 0;
    options.unsent_only = true;
    EXPECT_STATUS(inband_deltas_new(INBAND_DIALECT_HERMES, &options, &d), INBAND_OK);
    feed_bytewise(d, text, joined, sizeof joined);
    CHECK(strstr(joined, "{\"content\":\"j\"}{\"tool_calls\":[{\"index\":0,\"id\":\"call_") != NULL,
          "unsent-only deltas %s", joined);
    EXPECT_STATUS(inband_deltas_finish(d, &fin), INBAND_OK);
    CHECK(strcmp(fin.completion, "{\"content\":\"\",\"reasoning\":null,\"tool_calls\":[],"
                                 "\"incomplete_calls\":[],\"diagnostics\":[]}") == 0,
          "unsent-only completion %s", fin.completion);
    CHECK(strcmp(fin.finish_reason, "tool_calls") == 0, "unsent: %s", fin.finish_reason);
    EXPECT_STATUS(inband_deltas_free(&d), INBAND_OK);
}

/* A call that breaks after it was sent: what the deltas said stands, the rest is content;
 * with hold_calls nothing of it is sent as a call. */
static void deltas_broken_call(void) {
    inband_deltas_t *d = NULL;
    inband_delta_options_t options;
    inband_finish_t fin;
    char joined[4096];
    const char *text = "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": ]}}</tool_call>";
    const char *completion =
        "{\"content\":\"<tool_call>{\\\"name\\\": \\\"f\\\", \\\"arguments\\\": {\\\"a\\\": ]}}"
        "</tool_call>\",\"reasoning\":null,\"tool_calls\":[],\"incomplete_calls\":[],"
        "\"diagnostics\":[{\"code\":\"missing_closer\",\"message\":\"the call's JSON was "
        "complete but its closing delimiter never came\",\"span\":[46,46]},{\"code\":"
        "\"invalid_arguments\",\"message\":\"the call's arguments are not a JSON object; kept "
        "as text\",\"span\":[46,46]}]}";
    memset(&options, 0, sizeof options);
    options.has_seed = true;
    EXPECT_STATUS(inband_deltas_new(INBAND_DIALECT_HERMES, &options, &d), INBAND_OK);
    feed_bytewise(d, text, joined, sizeof joined);
    CHECK(strstr(joined, "\"function\":{\"arguments\":\"]\"}}]}{\"content\":\"}\"}") != NULL,
          "streamed: %s", joined);
    EXPECT_STATUS(inband_deltas_finish(d, &fin), INBAND_OK);
    CHECK(strcmp(fin.completion, completion) == 0, "completion %s", fin.completion);
    CHECK(strcmp(fin.finish_reason, "stop") == 0, "reason %s", fin.finish_reason);
    EXPECT_STATUS(inband_deltas_free(&d), INBAND_OK);

    options.hold_calls = true;
    EXPECT_STATUS(inband_deltas_new(INBAND_DIALECT_HERMES, &options, &d), INBAND_OK);
    feed_bytewise(d, text, joined, sizeof joined);
    CHECK(strstr(joined, "tool_calls") == NULL, "held: %s", joined);
    EXPECT_STATUS(inband_deltas_finish(d, &fin), INBAND_OK);
    CHECK(strcmp(fin.completion, completion) == 0, "held completion %s", fin.completion);
    EXPECT_STATUS(inband_deltas_free(&d), INBAND_OK);
}

#ifdef __cplusplus
/* The C++ way to own handles: unique_ptr with the library's free. */
struct deltas_free {
    void operator()(inband_deltas_t *d) const { inband_deltas_free(&d); }
};

static void cpp_raii(void) {
    inband_deltas_t *raw = nullptr;
    EXPECT_STATUS(inband_deltas_new(INBAND_DIALECT_QWEN3, nullptr, &raw), INBAND_OK);
    std::unique_ptr<inband_deltas_t, deltas_free> d(raw);
    std::string text = "<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>";
    std::string out;
    for (char ch : text) {
        const char *json = nullptr;
        EXPECT_STATUS(inband_deltas_feed(d.get(), reinterpret_cast<const uint8_t *>(&ch), 1,
                                         &json, nullptr),
                      INBAND_OK);
        if (json && std::string(json) != "{}") {
            out += json;
        }
    }
    inband_finish_t fin = inband_finish_t();
    EXPECT_STATUS(inband_deltas_finish(d.get(), &fin), INBAND_OK);
    CHECK(std::string(fin.finish_reason) == "tool_calls", "C++: a call");
    CHECK(out.find("\"name\":\"f\"") != std::string::npos, "C++: deltas %s", out.c_str());
}
#endif

/* Token mode: `<tool_call>` counts only where the model's token arrived. */
struct token_counts {
    int starts;
    size_t text;
};

static void count_start(void *user, inband_span_t span, uint32_t call, const uint8_t *name,
                        size_t name_len, bool provisional) {
    (void)span;
    (void)call;
    (void)name;
    (void)name_len;
    (void)provisional;
    ((struct token_counts *)user)->starts++;
}

static void count_text(void *user, inband_span_t span, const uint8_t *text, size_t len) {
    (void)span;
    (void)text;
    ((struct token_counts *)user)->text += len;
}

static void token_mode(void) {
    inband_callbacks_t cb;
    inband_scanner_t *s = NULL;
    struct token_counts counts = {0, 0};
    size_t gated = 99;
    const char *quoted = "Write <tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>. ";
    const char *call = "<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>";
    inband_token_span_t spans[2];
    memset(&cb, 0, sizeof cb);
    cb.tool_start = count_start;
    cb.text = count_text;
    spans[0].start = 0;
    spans[0].end = 11;
    spans[1].start = strlen(call) - 12;
    spans[1].end = strlen(call);

    EXPECT_STATUS(inband_scanner_new(INBAND_DIALECT_QWEN3, NULL, &s), INBAND_OK);
    EXPECT_STATUS(inband_scanner_feed_tokens(s, (const uint8_t *)call, strlen(call), spans, 2,
                                             &cb, &counts),
                  INBAND_ERROR_STATE);
    EXPECT_STATUS(inband_scanner_add_token(s, (const uint8_t *)"<tool_call>", 11, &gated),
                  INBAND_OK);
    CHECK(gated == 1, "one delimiter gated, got %zu", gated);
    EXPECT_STATUS(inband_scanner_add_token(s, (const uint8_t *)"</tool_call>", 12, NULL),
                  INBAND_OK);
    EXPECT_STATUS(inband_scanner_add_token(s, NULL, 3, NULL), INBAND_ERROR_NULL);
    EXPECT_STATUS(inband_scanner_feed_tokens(s, (const uint8_t *)quoted, strlen(quoted), NULL, 0,
                                             &cb, &counts),
                  INBAND_OK);
    CHECK(counts.starts == 0 && counts.text == strlen(quoted), "quoted: %d calls, %zu text",
          counts.starts, counts.text);
    EXPECT_STATUS(inband_scanner_add_token(s, (const uint8_t *)"<x>", 3, NULL),
                  INBAND_ERROR_STATE);
    EXPECT_STATUS(inband_scanner_feed_tokens(s, (const uint8_t *)call, strlen(call), NULL, 2,
                                             &cb, &counts),
                  INBAND_ERROR_NULL);
    spans[1].start = 5;
    EXPECT_STATUS(inband_scanner_feed_tokens(s, (const uint8_t *)call, strlen(call), spans, 2,
                                             &cb, &counts),
                  INBAND_ERROR_ARGUMENT);
    spans[1].start = strlen(call) - 12;
    EXPECT_STATUS(inband_scanner_feed_tokens(s, (const uint8_t *)call, strlen(call), spans, 2,
                                             &cb, &counts),
                  INBAND_OK);
    EXPECT_STATUS(inband_scanner_finish(s, &cb, &counts), INBAND_OK);
    CHECK(counts.starts == 1, "the tokens' call: %d calls", counts.starts);
    /* Token mode survives a reset. */
    EXPECT_STATUS(inband_scanner_reset(s), INBAND_OK);
    counts.starts = 0;
    EXPECT_STATUS(inband_scanner_feed_tokens(s, (const uint8_t *)quoted, strlen(quoted), NULL, 0,
                                             &cb, &counts),
                  INBAND_OK);
    EXPECT_STATUS(inband_scanner_finish(s, &cb, &counts), INBAND_OK);
    CHECK(counts.starts == 0, "after reset: %d calls", counts.starts);
    EXPECT_STATUS(inband_scanner_free(&s), INBAND_OK);
}

int misuse(void) {
    misuse_dialects();
    misuse_scanner();
    misuse_in_use();
    stack_scanner();
    misuse_deltas();
    deltas_memory();
    deltas_broken_call();
    token_mode();
#ifdef __cplusplus
    cpp_raii();
#endif
    printf("misuse: done\n");
    return 0;
}
