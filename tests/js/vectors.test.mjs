// Every conformance vector of an export bundle, scored by the bundle's own scoring.mjs.
//
// RULESDOC_BUNDLE names the bundle's folder (tests/test_scoring_js.py writes it with
// `python -m rulesdoc export` and runs `node --test tests/js/`). The expected values are
// the vectors', computed by the Python engine: nothing here is taken from scoring.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const folder = process.env.RULESDOC_BUNDLE;
if (!folder) throw new Error("RULESDOC_BUNDLE: the folder of an export bundle");
const read = (name) => JSON.parse(readFileSync(join(folder, name), "utf8"));
const rules = read("rules.json");
const doc = read("conformance.json");
const { score } = await import(pathToFileURL(join(folder, "scoring.mjs")).href);

test("the bundle is the one this test reads", () => {
  assert.deepEqual([doc.format, doc.version], ["rulesdoc-conformance", 1]);
  assert.deepEqual([rules.format, rules.version], ["rulesdoc-rules", 1]);
  assert.ok(doc.vectors.length >= 50, `only ${doc.vectors.length} vectors`);
});

for (const vector of doc.vectors) {
  test(vector.id, () => {
    assert.deepEqual(score(rules, vector.input), vector.expected);
  });
}
