import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { QuizSessionStatus, type Role } from '../enums.ts';
import { identityId } from './columns.ts';
import { UserEntity } from './user.entity.ts';

/** Quizzes have fixed ids (1 foodsaver, 2 store manager, 3 ambassador, ...), as on the reference platform. */
export const QuizEntity = defineEntity({
  name: 'Quiz',
  tableName: 'quizzes',
  properties: {
    id: p.integer().primary().autoincrement(false).check('id >= 1'),
    name: p.string().length(120),
    grantedRole: p.smallint().$type<Role>().check('granted_role >= 0 and granted_role <= 4'),
    questions: () => p.oneToMany(QuizQuestionEntity).mappedBy('quiz').orphanRemoval(),
  },
});
export type QuizEntity = InferEntity<typeof QuizEntity>;

export const QuizQuestionEntity = defineEntity({
  name: 'QuizQuestion',
  tableName: 'quiz_questions',
  properties: {
    id: identityId(),
    quiz: () => p.manyToOne(QuizEntity).ref().deleteRule('cascade').index(),
    text: p.text(),
    answers: () => p.oneToMany(QuizAnswerEntity).mappedBy('question').orphanRemoval(),
  },
});
export type QuizQuestionEntity = InferEntity<typeof QuizQuestionEntity>;

export const QuizAnswerEntity = defineEntity({
  name: 'QuizAnswer',
  tableName: 'quiz_answers',
  properties: {
    id: identityId(),
    question: () => p.manyToOne(QuizQuestionEntity).ref().deleteRule('cascade').index(),
    text: p.text(),
    isRight: p.boolean(),
    explanation: p.text().nullable(),
  },
});
export type QuizAnswerEntity = InferEntity<typeof QuizAnswerEntity>;

export const QuizSessionEntity = defineEntity({
  name: 'QuizSession',
  tableName: 'quiz_sessions',
  properties: {
    id: identityId(),
    user: () => p.manyToOne(UserEntity).ref().deleteRule('cascade'),
    quiz: () => p.manyToOne(QuizEntity).ref().deleteRule('cascade'),
    status: p
      .smallint()
      .$type<QuizSessionStatus>()
      .default(QuizSessionStatus.Running)
      .check('status >= 0 and status <= 2'),
    startedAt: p.datetime().defaultRaw('now()'),
    finishedAt: p.datetime().nullable(),
    confirmedAt: p.datetime().nullable(),
  },
  indexes: [
    {
      name: 'quiz_sessions_user_id_quiz_id_started_at_index',
      columns: [{ name: 'user_id' }, { name: 'quiz_id' }, { name: 'started_at', sort: 'DESC' }],
    },
  ],
  checks: [
    {
      name: 'quiz_sessions_only_passed_confirmed',
      expression: 'confirmed_at is null or status = 1',
    },
  ],
});
export type QuizSessionEntity = InferEntity<typeof QuizSessionEntity>;
