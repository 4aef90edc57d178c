/**
 * compileFromStore puts the transform store in front of tsx's handler: a file
 * tsx has just compiled runs the code a file from the store runs (its esbuild
 * helpers shared), and the store keeps what tsx compiled it to.
 */
import Module from "node:module";
import { describe, expect, it } from "vitest";
import { compileFromStore } from "../../src/loader/compile-from-store.js";
import type { TransformStore } from "../../src/loader/transform-store.js";

const FILENAME = "/srv/tools/echo.ts";
const TSX_CODE = `__filename=${JSON.stringify(FILENAME)};(()=>{
var __defProp=Object.defineProperty;var __getOwnPropNames=Object.getOwnPropertyNames;var __hasOwnProp=Object.prototype.hasOwnProperty;var __export=(target,all)=>{for(var name in all)__defProp(target,name,{get:all[name],enumerable:true})};var __copyProps=(to,from,except)=>{if(from&&typeof from==="object"||typeof from==="function"){for(let key of __getOwnPropNames(from))if(!__hasOwnProp.call(to,key)&&key!==except)__defProp(to,key,{get:()=>from[key],enumerable:true})}return to};var __toCommonJS=mod=>__copyProps(__defProp({},"__esModule",{value:true}),mod);var echo_exports={};__export(echo_exports,{default:()=>echo_default});module.exports=__toCommonJS(echo_exports);var echo_default={name:"echo"};
})()
`;

type Compiling = Module & { _compile(code: string, filename: string): unknown };

/** A store that holds nothing yet, and records what it is given to keep. */
function emptyStore(kept: string[]): TransformStore {
  const store: Pick<TransformStore, "take" | "keep"> = {
    take: () => undefined,
    keep: (_path, _stamp, code) => {
      kept.push(code);
    },
  };
  return store as TransformStore;
}

/** Loads FILENAME as tsx's handler does (compiles TSX_CODE), with the store in front; what Node compiled. */
function loadCold(kept: string[]): { exports: unknown; ran: string[] } {
  const module = new Module(FILENAME) as Compiling;
  const ran: string[] = [];
  const ownCompile = Module.prototype as unknown as Compiling;
  module._compile = function (this: Compiling, code: string, filename: string) {
    ran.push(code);
    return ownCompile._compile.call(this, code, filename);
  };
  const tsxLoad = (target: unknown, filename: string) =>
    (target as Compiling)._compile(TSX_CODE, filename);
  compileFromStore(tsxLoad, () => emptyStore(kept)).call(undefined, module, FILENAME);
  return { exports: module.exports, ran };
}

describe("compileFromStore", () => {
  it("runs a file tsx has just compiled with its esbuild helpers shared, and keeps tsx's code", () => {
    const kept: string[] = [];
    const { exports, ran } = loadCold(kept);
    expect(exports).toMatchObject({ __esModule: true, default: { name: "echo" } });
    expect(ran).toHaveLength(1);
    expect(ran[0]).not.toContain("var __defProp=");
    expect(ran[0]).toContain('Symbol.for("mcp-dir.esbuild-helpers")');
    expect(ran[0]?.length).toBe(TSX_CODE.length);
    expect(kept).toEqual([TSX_CODE]);
  });
});
