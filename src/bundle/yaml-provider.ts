import * as yaml from "yaml";
import { yamlParser } from "../loader/front-matter.js";

// Imported by a bundle only when it embeds Markdown prompts: their front matter is
// the only YAML a bundle reads, and the parser is an eighth of a small bundle.
yamlParser.provide(yaml);
