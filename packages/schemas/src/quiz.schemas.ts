import { type Static, Type } from 'typebox';
import { DateTime, Id, Nullable } from './common.schemas.ts';
import { DigitsParam } from './params.schemas.ts';

/** The answer to confirming a passed quiz (docs/spec.md §4.1, row 5). */
export const QuizConfirmationSchema = Type.Object(
  {
    quizId: Id(),
    role: Type.Integer({
      minimum: 0,
      maximum: 4,
      description: "The caller's role afterwards: the quiz's role, or a higher one they had",
    }),
    confirmedAt: DateTime({ description: 'When the passed session was confirmed' }),
    endedSessionCount: Type.Integer({
      minimum: 0,
      description: "How many of the caller's other sessions were ended",
    }),
  },
  { title: 'QuizConfirmation' },
);
export type QuizConfirmation = Static<typeof QuizConfirmationSchema>;

export const QuizQuestionParamsSchema = Type.Object(
  { quizId: DigitsParam(), questionId: DigitsParam() },
  { title: 'QuizQuestionParams' },
);
export type QuizQuestionParams = Static<typeof QuizQuestionParamsSchema>;

/** An answer of a quiz question as its curators (orga, the quiz group) see it. */
export const QuizAnswerSchema = Type.Object(
  {
    id: Id(),
    questionId: Id(),
    text: Type.String(),
    isRight: Type.Boolean(),
    explanation: Nullable(Type.String()),
  },
  { title: 'QuizAnswer' },
);
export type QuizAnswer = Static<typeof QuizAnswerSchema>;

export const QuizAnswerListSchema = Type.Array(QuizAnswerSchema, { title: 'QuizAnswerList' });
export type QuizAnswerList = Static<typeof QuizAnswerListSchema>;
