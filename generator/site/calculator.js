// calculator.js: starts the scoring page's calculator, once.
//
// Served over http(s), it runs the page's module, calculator.mjs (which imports the export
// bundle's scoring.mjs). A page opened from disk has the origin null, and Chromium refuses it
// module scripts: there it runs calculator-classic.js, the same three modules made into one
// classic script at build time (generator/site/classic.py). Both files sit beside this one.
(function () {
  "use strict";
  var here = document.currentScript;
  if (!here || !document.getElementById("rd-calc")) return; // not the scoring page
  var script = document.createElement("script");
  if (location.protocol === "file:") {
    script.src = new URL("calculator-classic.js", here.src).href;
  } else {
    script.type = "module";
    script.src = new URL("calculator.mjs", here.src).href;
  }
  here.after(script);
})();
