// simdjson_parse: what `quicksilver-bench`'s parse.300k is compared with (`make bench` builds it
// against Debian's libsimdjson-dev and passes it as `bench --simdjson`). It parses a replay
// journal with simdjson's NDJSON mode (On-Demand `iterate_many`) and, to do the same work as
// Quicksilver's parser, visits every field of every line: each key, each number as a double,
// each string, each "mods" array. It checks no schema (Quicksilver's parser checks all of it).
//
// Usage: simdjson_parse FILE [RUNS]. Prints one line:
//   PARSE_MS READ_AND_PARSE_MS LINES CHECKSUM
// the median over RUNS (default 5, after one warm-up) of parsing the file already in memory, and
// of reading it and parsing it; LINES and CHECKSUM show that every line was read.
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

using namespace simdjson;

struct Totals {
    long lines = 0;
    double sum = 0;
};

// Every field of every document; false (with a message) on any error simdjson reports.
static bool parse(ondemand::parser &parser, const padded_string &json, Totals &totals) {
    ondemand::document_stream stream;
    if (auto error = parser.iterate_many(json).get(stream)) {
        std::fprintf(stderr, "simdjson_parse: %s\n", error_message(error));
        return false;
    }
    for (auto doc : stream) {
        ondemand::object object;
        if (auto error = doc.get_object().get(object)) {
            std::fprintf(stderr, "simdjson_parse: line %ld: %s\n", totals.lines + 1, error_message(error));
            return false;
        }
        for (auto field : object) {
            std::string_view key;
            ondemand::value value;
            if (field.unescaped_key().get(key) || field.value().get(value)) return false;
            ondemand::json_type type;
            if (value.type().get(type)) return false;
            switch (type) {
            case ondemand::json_type::number: {
                double d;
                if (value.get_double().get(d)) return false;
                totals.sum += d;
                break;
            }
            case ondemand::json_type::string: {
                std::string_view s;
                if (value.get_string().get(s)) return false;
                totals.sum += double(s.size());
                break;
            }
            case ondemand::json_type::array: {
                ondemand::array items;
                if (value.get_array().get(items)) return false;
                for (auto item : items) {
                    std::string_view s;
                    if (item.get_string().get(s)) return false;
                    totals.sum += double(s.size());
                }
                break;
            }
            default:
                std::fprintf(stderr, "simdjson_parse: line %ld: field \"%.*s\" of an unexpected type\n", totals.lines + 1,
                             int(key.size()), key.data());
                return false;
            }
            totals.sum += double(key.size());
        }
        totals.lines++;
    }
    return true;
}

static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: simdjson_parse FILE [RUNS]\n");
        return 2;
    }
    const char *path = argv[1];
    int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
    ondemand::parser parser;
    std::vector<double> parseOnly, readAndParse;
    Totals totals;
    using clock = std::chrono::steady_clock;
    for (int run = -1; run < runs; run++) {
        auto start = clock::now();
        padded_string json;
        if (auto error = padded_string::load(path).get(json)) {
            std::fprintf(stderr, "simdjson_parse: cannot read %s: %s\n", path, error_message(error));
            return 1;
        }
        auto loaded = clock::now();
        totals = Totals();
        if (!parse(parser, json, totals)) return 1;
        auto done = clock::now();
        if (run < 0) continue;  // the warm-up
        parseOnly.push_back(std::chrono::duration<double, std::milli>(done - loaded).count());
        readAndParse.push_back(std::chrono::duration<double, std::milli>(done - start).count());
    }
    std::printf("%.3f %.3f %ld %.6g\n", median(parseOnly), median(readAndParse), totals.lines, totals.sum);
    return 0;
}
