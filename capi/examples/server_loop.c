/*
 * A llama.cpp-style generation loop: each decode step yields one token's text, which goes
 * straight into inband; whatever it adds to the response is streamed to the client as an
 * OpenAI chat.completion.chunk (server-sent events), without re-parsing the response so
 * far. The "model" here replays the tokens of a Qwen3 response.
 *
 * Build and run from the repository root (one line):
 *
 *   cargo build --release -p inband-capi && cc -std=c99 -Wall -Icapi/include capi/examples/server_loop.c target/release/libinband_capi.a -lpthread -ldl -lm -o server_loop && ./server_loop
 *
 * An optional argument picks the dialect from a model id (default Qwen/Qwen3-8B):
 *   ./server_loop zai-org/GLM-4.6      (then the replayed Qwen3 tokens are plain text)
 */
#include "inband.h"

#include <stdio.h>
#include <string.h>

/* What the model generates, one token's text per decode step (special tokens kept). */
static const char *const TOKENS[] = {
    "<think>", "\n", "The", " user", " wants", " the", " weather", " in", " Paris", ".",
    "\n", "</think>", "\n\n", "Let", " me", " check", ".", "\n", "<tool", "_call>", "\n",
    "{\"", "name", "\":", " \"", "get", "_weather", "\",", " \"", "arguments", "\":", " {\"",
    "city", "\":", " \"", "Par", "is", "\",", " \"", "unit", "\":", " \"", "°", "C", "\"}}",
    "\n", "</tool_call>",
};

static const char TOOLS[] =
    "[{\"type\": \"function\", \"function\": {\"name\": \"get_weather\", \"parameters\": "
    "{\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"}, "
    "\"unit\": {\"type\": \"string\"}}}}}]";

/* One server-sent event holding a chat.completion.chunk around inband's delta object. */
static void send_chunk(const char *delta, const char *finish_reason) {
    printf("data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
           "\"delta\":%s,\"finish_reason\":%s%s%s}]}\n\n",
           delta, finish_reason ? "\"" : "", finish_reason ? finish_reason : "null",
           finish_reason ? "\"" : "");
}

static int fail(const char *what, inband_status_t status) {
    fprintf(stderr, "%s: %s: %s\n", what, inband_status_name(status), inband_last_error());
    return 1;
}

int main(int argc, char **argv) {
    const char *model = argc > 1 ? argv[1] : "Qwen/Qwen3-8B";
    inband_dialect_t dialect;
    inband_delta_options_t options;
    inband_deltas_t *deltas = NULL;
    inband_finish_t end;
    inband_status_t status;
    size_t i;

    if ((status = inband_dialect_for_model(model, &dialect)) != INBAND_OK) {
        return fail("dialect", status);
    }
    memset(&options, 0, sizeof options); /* all zero: the defaults */
    options.tools = TOOLS;
    options.tools_len = strlen(TOOLS);
    options.has_seed = true; /* deterministic call ids for this demo */
    options.seed = 1;
    if ((status = inband_deltas_new(dialect, &options, &deltas)) != INBAND_OK) {
        return fail("deltas", status);
    }
    fprintf(stderr, "model %s speaks %s\n", model, inband_dialect_name(dialect));

    for (i = 0; i < sizeof TOKENS / sizeof TOKENS[0]; i++) { /* the decode loop */
        const char *delta;
        size_t len;
        status = inband_deltas_feed(deltas, (const uint8_t *)TOKENS[i], strlen(TOKENS[i]),
                                    &delta, &len);
        if (status != INBAND_OK) {
            inband_deltas_free(&deltas);
            return fail("feed", status);
        }
        if (len > 2) { /* "{}": nothing new for the client yet */
            send_chunk(delta, NULL);
        }
    }

    if ((status = inband_deltas_finish(deltas, &end)) != INBAND_OK) {
        inband_deltas_free(&deltas);
        return fail("finish", status);
    }
    send_chunk(end.delta, end.finish_reason);
    printf("data: [DONE]\n\n");
    fprintf(stderr, "completion: %s\n", end.completion);
    inband_deltas_free(&deltas);
    return 0;
}
