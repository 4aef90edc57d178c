import { describeTopLevelAwait } from "./helpers/top-level-await-cases.js";

describeTopLevelAwait('a package.json without "type"', { packageJson: {} });
