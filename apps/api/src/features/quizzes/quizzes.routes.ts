import {
  ProblemSchema,
  QuizAnswerListSchema,
  QuizAnswerParamsSchema,
  QuizAnswerSchema,
  QuizConfirmationSchema,
  QuizIdParamsSchema,
  QuizQuestionParamsSchema,
} from '@foodshare/schemas';
import { requireActor, requireSession } from '@foodshare/server-kit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { deleteQuizAnswer, listQuizAnswers } from './quiz-answers.service.ts';
import { confirmPassedQuiz } from './quiz-confirmation.service.ts';
import { callerOf, parsedAsActor } from '../../shared/as-actor.ts';
import { idFromPath, idFromPathAsActor, resourceProblems } from '../../shared/path-ids.ts';

const problems = resourceProblems;

export const quizzesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/users/current/quiz-sessions/:quizId/confirmation',
    {
      schema: {
        tags: ['quizzes'],
        operationId: 'confirmQuizSession',
        summary: 'Confirm a passed quiz: raises the role and ends the other sessions',
        params: QuizIdParamsSchema,
        response: { 200: QuizConfirmationSchema, 400: ProblemSchema, ...problems },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const session = requireSession(request);
      const quizId = await idFromPathAsActor(request, request.params.quizId);
      const confirmed = await confirmPassedQuiz(request.em, caller, quizId);
      // After the commit: the other sessions must not outlive the role they were opened with,
      // and a retry after a failure here confirms again harmlessly and ends them then.
      const endedSessionCount = await app.sessions.destroyOthers(caller.userId, session.id);
      request.log.info(
        {
          userId: caller.userId,
          quizId: confirmed.quizId,
          role: confirmed.role,
          endedSessionCount,
        },
        'quiz confirmed',
      );
      return { ...confirmed, endedSessionCount };
    },
  );

  app.get(
    '/quiz/:quizId/questions/:questionId/answers',
    {
      schema: {
        tags: ['quizzes'],
        operationId: 'getQuizAnswers',
        summary: 'The answers of a quiz question, for its curators',
        params: QuizQuestionParamsSchema,
        response: { 200: QuizAnswerListSchema, ...problems },
      },
    },
    async (request) => {
      // The caller's account is read with the quiz group's admins (shared/as-actor.ts).
      const caller = callerOf(request);
      const { quizId, questionId } = request.params;
      const ref = await parsedAsActor(request, () => ({
        quizId: idFromPath(quizId),
        questionId: idFromPath(questionId),
      }));
      return listQuizAnswers(request.em, caller, ref);
    },
  );

  app.delete(
    '/quiz/:quizId/questions/:questionId/answers/:answerId',
    {
      schema: {
        tags: ['quizzes'],
        operationId: 'deleteQuizAnswer',
        summary: 'Delete an answer of a quiz question; returns the deleted answer',
        params: QuizAnswerParamsSchema,
        response: { 200: QuizAnswerSchema, ...problems },
      },
    },
    async (request) => {
      const actor = await requireActor(request);
      const { quizId, questionId, answerId } = request.params;
      return deleteQuizAnswer(request.em, actor, {
        quizId: idFromPath(quizId),
        questionId: idFromPath(questionId),
        answerId: idFromPath(answerId),
      });
    },
  );
};
