// The score sheets this browser has opened, most recent first, kept in localStorage:
// each sheet's unguessable token (its link), its players' names and its rule set.
// sheet.js adds a sheet when it is opened; calc-sheet.js offers them.

export const SHEETS_KEY = "mahjong-nts:sheets";
export const MAX_SHEETS = 8;
const TOKEN = /^[A-Za-z0-9_-]{32}$/;

export function knownSheets() {
  try {
    const known = JSON.parse(localStorage.getItem(SHEETS_KEY) || "[]");
    return Array.isArray(known)
      ? known.filter((s) => s && typeof s.token === "string" && TOKEN.test(s.token)).slice(0, MAX_SHEETS)
      : [];
  } catch {
    return []; // no storage in this browser (private mode), or something else in it
  }
}

export function rememberSheet(token, names, ruleset) {
  if (!TOKEN.test(token)) return;
  const sheets = [{ token, names: String(names), ruleset: String(ruleset) }];
  for (const s of knownSheets()) if (s.token !== token) sheets.push(s);
  try {
    localStorage.setItem(SHEETS_KEY, JSON.stringify(sheets.slice(0, MAX_SHEETS)));
  } catch {
    // not kept: the calculator will not offer this sheet
  }
}
