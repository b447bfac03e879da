// One document converted by @samchon/openapi 6 the way its README does it, timed:
//   node benchmarks/openapi_samchon.js DOCUMENT
// prints {"import", "read", "convert", "application", "functions", "errors"} (ms) as JSON.
// The package and js-yaml are installed by `python -m benchmarks.openapi_corpus_bench
// --install` into benchmarks/.node (git-ignored).
"use strict";
const fs = require("fs");
const path = require("path");
const { createRequire } = require("module");

const load = createRequire(path.join(__dirname, ".node", "package.json"));
const now = () => Number(process.hrtime.bigint()) / 1e6;

const started = now();
const { HttpLlm, OpenApi } = load("@samchon/openapi");
const yaml = load("js-yaml");
const imported = now();
const file = process.argv[2];
const text = fs.readFileSync(file, "utf8");
const raw = file.endsWith(".json") ? JSON.parse(text) : yaml.load(text);
const read = now();
const document = OpenApi.convert(raw);
const converted = now();
// HttpLlm.application's defaults: reference true, strict false, maxLength 64, no separate.
const application = HttpLlm.application({ document });
const done = now();
console.log(
  JSON.stringify({
    import: imported - started,
    read: read - imported,
    convert: converted - read,
    application: done - converted,
    functions: application.functions.length,
    errors: application.errors.length,
  }),
);
