import { describe, expect, it } from '@jest/globals';
import { generate } from '@graphql-codegen/cli';
import { existsSync, readFileSync } from 'node:fs';
import config, { CODEGEN_SERVICES, generatedTypesPath, type CodegenService } from '../codegen.js';

const services = Object.keys(CODEGEN_SERVICES) as CodegenService[];

describe('generated resolver types', () => {
  // One in-memory run of the same config `npm run codegen` uses; nothing is written.
  const generated = (generate(config, false) as Promise<Array<{ filename: string; content: string }>>).then(
    (files) => new Map(files.map((file) => [file.filename, file.content])),
  );

  it.each(services)(
    '%s: the checked-in src/graphql/resolvers-types.ts is what codegen produces from its SDL now (run `npm run codegen` if this fails)',
    async (service) => {
      const path = generatedTypesPath(service);
      expect(existsSync(path)).toBe(true);
      const content = (await generated).get(path);
      expect(content).toBeDefined();
      expect(readFileSync(path, 'utf8')).toBe(content);
    },
  );

  it('generates one file per service and nothing else', async () => {
    expect([...(await generated).keys()].sort()).toEqual(services.map(generatedTypesPath).sort());
  });
});
