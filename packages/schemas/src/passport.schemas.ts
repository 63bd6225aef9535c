import { type Static, Type } from 'typebox';
import { DateTime, Id, Nullable } from './common.schemas.ts';
import { UserStubSchema } from './user.schemas.ts';

/** One recorded passport generation (docs/domain.md §3.7: every generation is recorded). */
export const PassportGenerationSchema = Type.Object(
  {
    id: Id(),
    createdAt: DateTime(),
    generatedBy: Nullable(UserStubSchema),
  },
  { title: 'PassportGeneration' },
);
export type PassportGeneration = Static<typeof PassportGenerationSchema>;

/** The caller's passport generations, newest first. */
export const PassportGenerationListSchema = Type.Array(PassportGenerationSchema, {
  title: 'PassportGenerationList',
});
export type PassportGenerationList = Static<typeof PassportGenerationListSchema>;

/** The PDF card itself: a binary body, documented for OpenAPI only. */
export const PassportPdfSchema = Type.Unsafe<Buffer>({
  title: 'PassportPdf',
  type: 'string',
  format: 'binary',
  description: 'A one-page PDF card of 83 x 53.3 mm',
});
