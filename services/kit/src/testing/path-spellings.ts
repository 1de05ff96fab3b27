// Other spellings of a path, as an attacker tries them against a guard bound to the text of a path: letter case, a
// trailing slash, a percent-encoded letter, a repeated slash. With the services' routing (ROUTER_OPTIONS) none of them
// reaches the handler of `path`; tests assert that each answers 404 or counts against the same budget.

export interface PathSpelling {
  name: string;
  path: string;
}

/**
 * The other spellings of `template` (OpenAPI notation, `/api/pay/{slug}`), each named for the test's table, with the
 * parameters filled from `params`. Only the literal parts change, so a spelling that reached the route would find the
 * same resource (a real slug answers 200, not a 404 that would hide the bypass).
 */
export function otherSpellings(template: string, params: Record<string, string> = {}): PathSpelling[] {
  const fill = (path: string) => path.replace(/\{([^}]+)\}/g, (_match, name: string) => params[name] ?? 'x1');
  const literalsUpper = template.replace(/(^|\})([^{]*)/g, (_match, brace: string, literal: string) => `${brace}${literal.toUpperCase()}`);
  const letter = /[a-z]/i.exec(template.split('{')[0] ?? '');
  const spellings: PathSpelling[] = [
    { name: 'upper case', path: fill(literalsUpper) },
    { name: 'trailing slash', path: `${fill(template)}/` },
    { name: 'repeated slash', path: fill(template.replace('/', '//')) },
  ];
  if (letter) {
    const encoded = `%${template.charCodeAt(letter.index).toString(16).toUpperCase()}`;
    spellings.push({ name: 'percent-encoded letter', path: fill(`${template.slice(0, letter.index)}${encoded}${template.slice(letter.index + 1)}`) });
  }
  return spellings.filter((spelling) => spelling.path !== fill(template));
}
