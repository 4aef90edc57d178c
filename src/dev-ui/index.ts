export { type DevUi, type DevUiOptions, startDevUi } from "./ui-server.js";
