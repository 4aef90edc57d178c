import { describeTopLevelAwait } from "./helpers/top-level-await-cases.js";

describeTopLevelAwait("no package.json", { packageJson: false });
