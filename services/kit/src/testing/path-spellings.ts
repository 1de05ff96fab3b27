// Other spellings of a path, as an attacker tries them against a guard bound to the text of a path: letter case, a
// trailing slash, a percent-encoded letter, a repeated slash. With the services' routing (ROUTER_OPTIONS) none of them
// reaches the handler of `path`; tests assert that each answers 404 or counts against the same budget.

export interface PathSpelling {
  name: string;
  path: string;
}

/** The other spellings of `path` (a concrete path: parameters filled in), each named for the test's table. */
export function otherSpellings(path: string): PathSpelling[] {
  const letter = /[a-z]/i.exec(path);
  const spellings: PathSpelling[] = [
    { name: 'upper case', path: path.toUpperCase() },
    { name: 'trailing slash', path: `${path}/` },
    { name: 'repeated slash', path: path.replace('/', '//') },
  ];
  if (letter) {
    const encoded = `%${path.charCodeAt(letter.index).toString(16).toUpperCase()}`;
    spellings.push({ name: 'percent-encoded letter', path: `${path.slice(0, letter.index)}${encoded}${path.slice(letter.index + 1)}` });
  }
  return spellings.filter((spelling) => spelling.path !== path);
}
