import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { PassportGenerationListSchema, PassportGenerationSchema } from './passport.schemas.ts';
import { UploadIdParamsSchema } from './upload.schemas.ts';

const stub = { id: 7, name: 'Alice', avatar: null, isSleeping: false };

describe('PassportGenerationSchema', () => {
  it.each([
    [{ id: 1, createdAt: '2026-11-22T04:53:00.000Z', generatedBy: stub }],
    [{ id: 1, createdAt: '2026-11-22T04:53:00+01:00', generatedBy: null }],
  ])('accepts %j', (value) => {
    expect(Value.Check(PassportGenerationSchema, value)).toBe(true);
  });

  it.each([
    [{ id: 0, createdAt: '2026-11-22T04:53:00Z', generatedBy: null }],
    [{ id: 1, createdAt: 'yesterday', generatedBy: null }],
    [{ id: 1, createdAt: '2026-11-22T04:53:00Z' }],
  ])('refuses %j', (value) => {
    expect(Value.Check(PassportGenerationSchema, value)).toBe(false);
  });

  it('lists generations', () => {
    expect(Value.Check(PassportGenerationListSchema, [])).toBe(true);
  });
});

describe('UploadIdParamsSchema', () => {
  it('takes a UUID and nothing else', () => {
    const check = (uploadId: string) => Value.Check(UploadIdParamsSchema, { uploadId });
    expect(check('5e1f0d3a-7c52-4b8e-9a61-0d3e5f7a11ce')).toBe(true);
    expect(check('5e1f0d3a-7c52-4b8e-9a61-0d3e5f7a11c')).toBe(false);
    expect(check('1')).toBe(false);
  });
});
