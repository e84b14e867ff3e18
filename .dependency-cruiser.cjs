/**
 * `npm run lint`'s check of the server's module boundaries (issue 25, DESIGN §2): the folders
 * under apps/server/src/modules form no cycle. A cycle of files inside one module folder is
 * allowed; tests may import across modules. Type-only imports count: a type cycle couples modules
 * as much as a runtime one.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-module-folder-cycles',
      comment:
        'Server module folders (apps/server/src/modules/<name>/) must not depend on each other in a cycle: ' +
        'move what both need to a module below them (as scope/ holds the actor scope), or compose them in a ' +
        'module above both (as customer-details/ and key-refund/ do).',
      severity: 'error',
      scope: 'folder',
      from: { path: '^apps/server/src/modules/[^/]+$' },
      to: { path: '^apps/server/src/modules/[^/]+$', circular: true },
    },
    {
      name: 'no-deep-cross-module-import',
      comment:
        'Import another module only through files at the top of its folder: the folder-cycle rule sees an ' +
        'import of modules/<b>/<sub>/x.ts as pointing at folder <b>/<sub>, not <b>.',
      severity: 'error',
      from: { path: '^apps/server/src/modules/([^/]+)/' },
      to: { path: '^apps/server/src/modules/[^/]+/[^/]+/', pathNot: '^apps/server/src/modules/$1/' },
    },
  ],
  options: {
    includeOnly: '^apps/server/src/modules/',
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
  },
};
