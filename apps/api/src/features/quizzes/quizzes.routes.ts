import {
  ProblemSchema,
  QuizAnswerListSchema,
  QuizAnswerParamsSchema,
  QuizAnswerSchema,
  QuizConfirmationSchema,
  QuizIdParamsSchema,
  QuizQuestionParamsSchema,
} from '@foodshare/schemas';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { updateSessionsOfAccount } from '@foodshare/server-kit';
import { deleteQuizAnswer, listQuizAnswers } from './quiz-answers.service.ts';
import { confirmPassedQuiz } from './quiz-confirmation.service.ts';
import { requireActor, requireSession } from '../../plugins/caller.ts';
import { idFromPath, resourceProblems } from '../../plugins/platform-wire-format.ts';

const problems = resourceProblems;

export const quizzesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/users/current/quiz-sessions/:quizId/confirmation',
    {
      onRequest: requireSession,
      preValidation: requireActor,
      schema: {
        tags: ['quizzes'],
        operationId: 'confirmQuizSession',
        summary: 'Confirm a passed quiz: raises the role and ends the other sessions',
        params: QuizIdParamsSchema,
        response: { 200: QuizConfirmationSchema, 400: ProblemSchema, ...problems },
      },
    },
    async (request) => {
      const { actor } = request;
      const quizId = idFromPath(request, 'quizId');
      const confirmed = await confirmPassedQuiz(request.em, actor, quizId);
      // After the commit: the other sessions must not outlive the role they were opened with,
      // this one carries the new role, and a retry after a failure here confirms again
      // harmlessly and does both then. A token caller (an app) ends no browser session: the
      // sessions get the new role instead, so that no app can sign its user out by repeating
      // a confirmation.
      const endedSessionCount = request.session
        ? await app.sessions.destroyOthers(actor.id, request.session.id)
        : 0;
      await updateSessionsOfAccount(request.em, app.sessions, actor.id);
      request.log.info(
        {
          userId: actor.id,
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
      onRequest: requireSession,
      preValidation: requireActor,
      schema: {
        tags: ['quizzes'],
        operationId: 'getQuizAnswers',
        summary: 'The answers of a quiz question, for its curators',
        params: QuizQuestionParamsSchema,
        response: { 200: QuizAnswerListSchema, ...problems },
      },
    },
    async (request) => {
      const ref = {
        quizId: idFromPath(request, 'quizId'),
        questionId: idFromPath(request, 'questionId'),
      };
      return listQuizAnswers(request.em, request.actor, ref);
    },
  );

  app.delete(
    '/quiz/:quizId/questions/:questionId/answers/:answerId',
    {
      onRequest: requireSession,
      preValidation: requireActor,
      schema: {
        tags: ['quizzes'],
        operationId: 'deleteQuizAnswer',
        summary: 'Delete an answer of a quiz question; returns the deleted answer',
        params: QuizAnswerParamsSchema,
        response: { 200: QuizAnswerSchema, ...problems },
      },
    },
    async (request) => {
      return deleteQuizAnswer(request.em, request.actor, {
        quizId: idFromPath(request, 'quizId'),
        questionId: idFromPath(request, 'questionId'),
        answerId: idFromPath(request, 'answerId'),
      });
    },
  );
};
