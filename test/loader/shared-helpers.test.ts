/**
 * esbuild's helpers at the top of each compiled file, made once for every
 * file with the same text: the file keeps its length and columns, and
 * behaves as with its own copy; anything but esbuild's helpers stays.
 */
import Module from "node:module";
import { describe, expect, it } from "vitest";
import { HELPERS, shareHelpers } from "../../src/loader/shared-helpers.js";

const PRELUDE =
  'var __defProp=Object.defineProperty;var __getOwnPropNames=Object.getOwnPropertyNames;var __hasOwnProp=Object.prototype.hasOwnProperty;var __export=(target,all)=>{for(var name in all)__defProp(target,name,{get:all[name],enumerable:true})};var __copyProps=(to,from,except)=>{if(from&&typeof from==="object"||typeof from==="function"){for(let key of __getOwnPropNames(from))if(!__hasOwnProp.call(to,key)&&key!==except)__defProp(to,key,{get:()=>from[key],enumerable:true})}return to};var __toCommonJS=mod=>__copyProps(__defProp({},"__esModule",{value:true}),mod);';
const FIRST_LINE = '__filename="/srv/tools/echo.ts";(()=>{\n';

/** A file as tsx compiles one: its helpers, then its own code, on one line. */
function compiled(own: string): string {
  return `${FIRST_LINE}${PRELUDE}${own}\n})()\n`;
}

const OWN =
  'var echo_exports={};__export(echo_exports,{default:()=>echo_default});module.exports=__toCommonJS(echo_exports);var echo_default={name:"echo"};';

/** Runs `code` as Node runs a CommonJS file, with the helpers shareHelpers gave it. */
function run(code: string, helpers?: Record<string, unknown>): Record<string, unknown> {
  const module = new Module("/srv/tools/echo.ts") as Module & { [HELPERS]?: unknown } & {
    _compile(code: string, filename: string): void;
  };
  module[HELPERS] = helpers;
  module._compile(code, "/srv/tools/echo.ts");
  return module.exports as Record<string, unknown>;
}

describe("shareHelpers", () => {
  it("takes the helpers from the module, keeping every column of the file's own code", () => {
    const code = compiled(OWN);
    const shared = shareHelpers(code);
    expect(shared).toBeDefined();
    const { code: sharedCode, helpers } = shared as NonNullable<typeof shared>;
    expect(sharedCode.length).toBe(code.length);
    expect(sharedCode.indexOf(OWN)).toBe(code.indexOf(OWN));
    expect(sharedCode).not.toContain("Object.defineProperty");
    expect(Object.keys(helpers)).toEqual([
      "__defProp",
      "__getOwnPropNames",
      "__hasOwnProp",
      "__export",
      "__copyProps",
      "__toCommonJS",
    ]);
    const exports = run(sharedCode, helpers);
    expect(exports.__esModule).toBe(true);
    expect(exports.default).toEqual({ name: "echo" });
    expect(run(code)).toEqual(exports);
  });

  it("makes one set of helpers for every file with the same text", () => {
    const one = shareHelpers(compiled(OWN));
    const other = shareHelpers(compiled(OWN.replaceAll("echo", "shout")));
    expect(other?.helpers).toBe(one?.helpers);
  });

  it("reads a prelude seen before to its end when more helpers follow it", () => {
    shareHelpers(compiled(OWN));
    const name = 'var __name=(target,value)=>__defProp(target,"name",{value,configurable:true});';
    const longer = compiled(`${name}${OWN}`);
    const shared = shareHelpers(longer);
    expect(Object.keys(shared?.helpers ?? {})).toContain("__name");
    expect(shared?.code).not.toContain("var __name=");
    expect(shared?.code.indexOf(OWN)).toBe(longer.indexOf(OWN));
    expect(run(shared?.code ?? "", shared?.helpers).default).toEqual({ name: "echo" });
  });

  it("leaves the file's own variables, even named like a helper, in its code", () => {
    const own = "var __cache=new Map();module.exports=__cache;";
    const shared = shareHelpers(compiled(own));
    expect(shared?.code).toContain(own);
    expect(shared?.code.indexOf(own)).toBe(compiled(own).indexOf(own));
  });

  it("shares nothing that reads the module's own bindings, or a file that does not start with helpers", () => {
    const bound = compiled(OWN).replace(
      "var __defProp=Object.defineProperty;",
      "var __defProp=Object.defineProperty;var __require=x=>require(x);",
    );
    expect(shareHelpers(bound.replace("var __require=", "var __name="))).toBeUndefined();
    expect(shareHelpers('"use strict";module.exports=1;')).toBeUndefined();
    expect(shareHelpers(`${FIRST_LINE}var x=1;${PRELUDE}`)).toBeUndefined();
  });
});
