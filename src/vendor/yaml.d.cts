import yaml = require("yaml");
export = yaml;
