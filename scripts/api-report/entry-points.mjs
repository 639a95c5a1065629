// Which public entry points a package has, and where their reports live. Pure functions over a
// package.json object, so that adding a subpath to `exports` is all it takes to lock its surface.

/** Export keys that are metadata or assets, not modules with a TypeScript surface. */
const NOT_A_MODULE = /\.(json|css|wasm|map)$/

/** The conditions looked at, in order, when an export target has no `types` of its own. */
const CONDITIONS = ['types', 'import', 'node', 'default', 'require']

/**
 * Finds the declaration file a TypeScript user gets for one `exports` target.
 *
 * @param target - a value of the `exports` map: a path, a conditions object, or null
 * @returns the `.d.ts` path relative to the package, or undefined when the target has none
 */
export function typesOf(target) {
  if (typeof target === 'string') {
    if (/\.d\.[cm]?ts$/.test(target)) return target
    const js = /\.([cm]?)js$/.exec(target)
    return js ? target.slice(0, -js[0].length) + `.d.${js[1]}ts` : undefined
  }
  if (Array.isArray(target)) {
    for (const fallback of target) {
      const found = typesOf(fallback)
      if (found) return found
    }
    return undefined
  }
  if (target && typeof target === 'object') {
    for (const condition of CONDITIONS) {
      if (condition in target) {
        const found = typesOf(target[condition])
        if (found) return found
      }
    }
  }
  return undefined
}

/**
 * Names the report of a subpath: `.` is `index`, `./provider` is `provider`, `./a/b` is `a-b`.
 *
 * @param subpath - a key of the `exports` map
 */
export function reportName(subpath) {
  if (subpath === '.') return 'index'
  return subpath.replace(/^\.\//, '').replace(/\//g, '-')
}

/**
 * Lists the entry points of a published package from its `exports` map (or `types` when it has no
 * `exports`). Throws on what cannot be locked by a report, so that it is noticed rather than
 * skipped: a wildcard subpath, or a module subpath without declarations.
 *
 * @param packageJson - the parsed package.json
 * @returns one entry per module subpath: `{ subpath, importPath, name, types }`
 */
export function entryPoints(packageJson) {
  const { name, exports } = packageJson
  let map
  if (exports === undefined) {
    const types = packageJson.types ?? packageJson.typings
    map = types ? { '.': types } : {}
  } else if (typeof exports === 'string' || Array.isArray(exports) || !isSubpathMap(exports)) {
    map = { '.': exports }
  } else {
    map = exports
  }

  const entries = []
  for (const [subpath, target] of Object.entries(map)) {
    if (target === null || NOT_A_MODULE.test(subpath)) continue
    if (subpath.includes('*'))
      throw new Error(
        `${name}: the export "${subpath}" is a pattern; list its entry points one by one so each gets an API report.`
      )
    const types = typesOf(target)
    if (!types)
      throw new Error(`${name}: the export "${subpath}" has no declaration file ("types").`)
    entries.push({
      subpath,
      importPath: subpath === '.' ? name : `${name}/${subpath.replace(/^\.\//, '')}`,
      name: reportName(subpath),
      types: types.replace(/^\.\//, ''),
    })
  }

  const seen = new Map()
  for (const entry of entries) {
    const other = seen.get(entry.name)
    if (other)
      throw new Error(
        `${name}: the exports "${other.subpath}" and "${entry.subpath}" would share the report ${entry.name}.api.md.`
      )
    seen.set(entry.name, entry)
  }
  return entries
}

/** An `exports` object is a subpath map when its keys start with `.`, else it is conditions. */
function isSubpathMap(exports) {
  return Object.keys(exports).every((key) => key.startsWith('.'))
}

/**
 * The file name of an entry point's report inside the package's `api/` folder.
 *
 * @param entry - an entry returned by {@link entryPoints}
 */
export function reportFileName(entry) {
  return `${entry.name}.api.md`
}
