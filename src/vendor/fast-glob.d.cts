import fastGlob = require("fast-glob");
export = fastGlob;
