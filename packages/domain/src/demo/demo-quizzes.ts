import {
  QuizAnswerEntity,
  QuizEntity,
  QuizQuestionEntity,
  QuizSessionEntity,
} from '../entities/quiz.entity.ts';
import type { UserEntity } from '../entities/user.entity.ts';
import { QuizSessionStatus, Role } from '../enums.ts';
import type { EntityManager } from '../db/orm.ts';
import type { DemoClock } from './demo-clock.ts';
import type { DemoUsers } from './demo-people.ts';

interface QuizSpec {
  id: number;
  name: string;
  grantedRole: Role;
  questions: { text: string; answers: [text: string, isRight: boolean, explanation?: string][] }[];
}

const QUIZZES: QuizSpec[] = [
  {
    id: 1,
    name: 'Foodsaver-Quiz',
    grantedRole: Role.Foodsaver,
    questions: [
      {
        text: 'Was machst du, wenn bei einer Abholung mehr Lebensmittel übrig sind, als du selbst verwerten kannst?',
        answers: [
          [
            'Ich gebe sie an andere Foodsaver, an einen Fairteiler oder an Bedürftige weiter.',
            true,
          ],
          [
            'Ich werfe den Rest in die Mülltonne des Betriebs.',
            false,
            'Genau das wollen wir vermeiden.',
          ],
          [
            'Ich lasse sie im Laden stehen.',
            false,
            'Der Betrieb verlässt sich darauf, dass alles mitgenommen wird.',
          ],
        ],
      },
      {
        text: 'Darfst du gerettete Lebensmittel verkaufen?',
        answers: [
          ['Nein, gerettete Lebensmittel werden immer kostenlos weitergegeben.', true],
          ['Ja, zum halben Preis.', false, 'Gerettete Lebensmittel sind nie eine Einnahmequelle.'],
          ['Nur an Freunde und Familie.', false],
        ],
      },
      {
        text: 'Du kannst einen eingetragenen Abholtermin nicht wahrnehmen. Was tust du?',
        answers: [
          ['Ich trage mich so früh wie möglich aus und sage dem Team Bescheid.', true],
          [
            'Nichts, es wird schon jemand anderes kommen.',
            false,
            'Unzuverlässigkeit gefährdet die Kooperation.',
          ],
        ],
      },
    ],
  },
  {
    id: 2,
    name: 'Betriebsverantwortlichen-Quiz',
    grantedRole: Role.StoreManager,
    questions: [
      {
        text: 'Wer darf neue Mitglieder ins Abholteam aufnehmen?',
        answers: [
          ['Die Betriebsverantwortlichen des Betriebs.', true],
          ['Jedes Teammitglied.', false],
          ['Die Filialleitung des Supermarkts.', false, 'Das Team organisiert sich selbst.'],
        ],
      },
      {
        text: 'Wie oft solltest du mit dem Betrieb Rücksprache halten?',
        answers: [
          ['Regelmäßig, und immer wenn sich etwas an den Abholungen ändert.', true],
          ['Nur beim ersten Gespräch.', false],
        ],
      },
    ],
  },
  {
    id: 3,
    name: 'Botschafter-Quiz',
    grantedRole: Role.Ambassador,
    questions: [
      {
        text: 'Was gehört zu den Aufgaben einer Botschafterin?',
        answers: [
          ['Neue Foodsaver begleiten und den Bezirk nach außen vertreten.', true],
          [
            'Allein über alle Betriebe entscheiden.',
            false,
            'Botschafter arbeiten mit den Teams zusammen.',
          ],
        ],
      },
      {
        text: 'Eine Meldung über ein Bezirksmitglied geht ein. Was tust du?',
        answers: [
          [
            'Ich leite sie an die zuständige Meldegruppe weiter und behandle sie vertraulich.',
            true,
          ],
          ['Ich poste sie im Bezirksforum.', false],
        ],
      },
    ],
  },
];

/** The fixed ids of the demo quizzes. */
export const DEMO_QUIZ_IDS = QUIZZES.map((quiz) => quiz.id);

/** The three role quizzes with their questions, and the sessions the demo users took. */
export function createQuizzes(em: EntityManager, clock: DemoClock, users: DemoUsers): void {
  createQuizDefinitions(em);
  createSessions(em, clock, users);
}

function createQuizDefinitions(em: EntityManager): void {
  for (const spec of QUIZZES) {
    const quiz = em.create(QuizEntity, {
      id: spec.id,
      name: spec.name,
      grantedRole: spec.grantedRole,
    });
    for (const question of spec.questions) {
      const created = em.create(QuizQuestionEntity, { quiz, text: question.text });
      for (const [text, isRight, explanation] of question.answers) {
        em.create(QuizAnswerEntity, {
          question: created,
          text,
          isRight,
          explanation: explanation ?? null,
        });
      }
    }
  }
}

function createSessions(em: EntityManager, clock: DemoClock, users: DemoUsers): void {
  const { alice, bob, carla, dana, kim } = users;
  const { ago } = clock;
  const session = (
    user: UserEntity,
    quiz: number,
    status: QuizSessionStatus,
    startedAt: Date,
    confirmed: boolean,
  ) =>
    em.create(QuizSessionEntity, {
      user,
      quiz,
      status,
      startedAt,
      finishedAt: new Date(startedAt.getTime() + 20 * 60_000),
      confirmedAt: confirmed ? new Date(startedAt.getTime() + 25 * 60_000) : null,
    });
  session(alice, 1, QuizSessionStatus.Passed, ago(400), true);
  session(alice, 2, QuizSessionStatus.Passed, ago(260), true);
  session(bob, 1, QuizSessionStatus.Passed, ago(120), true);
  session(kim, 1, QuizSessionStatus.Passed, ago(500), true);
  session(kim, 2, QuizSessionStatus.Passed, ago(450), true);
  session(dana, 1, QuizSessionStatus.Passed, ago(700), true);
  session(dana, 2, QuizSessionStatus.Passed, ago(650), true);
  session(dana, 3, QuizSessionStatus.Passed, ago(600), true);
  // carla failed once, then passed: the passed session awaits her confirmation (docs/spec.md §4.1,
  // row 5).
  session(carla, 1, QuizSessionStatus.Failed, ago(40), false);
  session(carla, 1, QuizSessionStatus.Passed, ago(2), false);
}
