/**
 * The one HTML document a script view becomes: its style sheet and its
 * script inline (a host loads a view as a string, and its default policy
 * lets nothing else load), a `#root` element to render into, and its title.
 */
export function viewDocument(title: string, script: string, styles: string): string {
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    ...(styles === "" ? [] : [`<style>\n${inline(styles, "style")}</style>`]),
    "</head>",
    "<body>",
    '<div id="root"></div>',
    `<script type="module">\n${inline(script, "script")}</script>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * Code that may not close its element early: "</script" in a string would end
 * the script. "<\/" reads the same in JavaScript strings and CSS strings.
 */
function inline(code: string, tag: "script" | "style"): string {
  return code.replace(new RegExp(`</(${tag})`, "gi"), "<\\/$1");
}
