// Regenerates the minimum-grouping-digits table of generator/localedata/cldr.py (_MIN_GROUPING).
// Babel carries no minimumGroupingDigits; ICU (in Node.js) applies CLDR's. Usage:
//   .venv/bin/python -c "from babel import localedata; print('\n'.join(localedata.locale_identifiers()))" \
//     | node scripts/min_grouping.mjs
import { readFileSync } from "node:fs";

const ids = readFileSync(0, "utf8").trim().split("\n").sort();
const table = {};
for (const id of ids) {
  let format;
  try {
    format = new Intl.NumberFormat(id.replace(/_/g, "-"), { numberingSystem: "latn" });
  } catch {
    continue;
  }
  const grouped = (n) => /\D/.test(format.format(n));
  const digits = grouped(1000) ? 1 : grouped(10000) ? 2 : grouped(100000) ? 3 : 0;
  if (digits > 1) (table[digits] ??= []).push(id);
}
console.log(`// ICU ${process.versions.icu}, CLDR ${process.versions.cldr}`);
for (const [digits, locales] of Object.entries(table)) console.log(digits, locales.join(" "));
