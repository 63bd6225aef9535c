import { ref } from '@mikro-orm/core';
import { ForumPostEntity, ForumThreadEntity } from '../entities/forum.entity.ts';
import type { UserEntity } from '../entities/user.entity.ts';
import type { EntityManager } from '../db/orm.ts';
import type { DemoClock } from './demo-clock.ts';
import { DemoRegionId } from './demo-ids.ts';
import type { DemoUsers } from './demo-people.ts';

export interface DemoThread {
  thread: ForumThreadEntity;
  posts: ForumPostEntity[];
}

export interface DemoForum {
  /** The Musterstadt thread with a hidden post. */
  experiences: DemoThread;
  hiddenPost: ForumPostEntity;
}

/** A thread whose creation and last-post times are those of its first and last post. */
export function createThread(
  em: EntityManager,
  region: number,
  title: string,
  author: UserEntity,
  posts: [UserEntity, Date, string][],
  flags: { pinnedLevel?: number; isAmbassadorForum?: boolean } = {},
): DemoThread {
  const first = posts[0]?.[1] ?? new Date();
  const last = posts.at(-1)?.[1] ?? first;
  const created = em.create(ForumThreadEntity, {
    region,
    title,
    author,
    createdAt: first,
    lastPostAt: last,
    ...flags,
  });
  return {
    thread: created,
    posts: posts.map(([postAuthor, createdAt, body]) =>
      em.create(ForumPostEntity, { thread: created, author: postAuthor, body, createdAt }),
    ),
  };
}

/** The threads of the Musterstadt and Beispieldorf forums; the chain's thread is with the stores. */
export function createForum(em: EntityManager, clock: DemoClock, users: DemoUsers): DemoForum {
  const { alice, bob, carla, dana, kim } = users;
  const { ago } = clock;
  const R = DemoRegionId;
  createThread(
    em,
    R.Musterstadt,
    'Willkommen in Musterstadt!',
    dana,
    [
      [dana, ago(30), 'Schön, dass ihr da seid! Hier stellen sich neue Foodsharer vor.'],
      [carla, ago(2), 'Hallo zusammen, ich bin Carla und wohne in der Altstadt.'],
    ],
    { pinnedLevel: 1 },
  );
  const experiences = createThread(
    em,
    R.Musterstadt,
    'Erfahrungen mit der Abholung im Beispiel-Markt',
    alice,
    [
      [alice, ago(10), 'Wie klappt es bei euch mit den Abholungen am Abend?'],
      [kim, ago(9), 'Gut! Die Filialleitung legt die Kisten inzwischen schon bereit.'],
      [carla, ago(8), 'Ruft einfach Frau M. direkt an, ihre Nummer ist 0151 2345678.'],
      [alice, ago(7), 'Bitte keine privaten Nummern im Forum, danke!'],
    ],
  );
  const hiddenPost = experiences.posts[2]!;
  // Phone numbers of store staff are personal data: the ambassador hid the post.
  hiddenPost.hiddenAt = ago(7, 2);
  hiddenPost.hiddenBy = ref(dana);
  hiddenPost.hideReason = 'Enthält die private Telefonnummer einer Mitarbeiterin.';
  createThread(
    em,
    R.Musterstadt,
    'Botschafterrunde: Planung Stammtisch',
    dana,
    [[dana, ago(5), 'Sollen wir den Stammtisch auf Donnerstag verlegen? Ich mache eine Umfrage.']],
    { isAmbassadorForum: true },
  );
  createThread(em, R.Beispieldorf, 'Fairteiler im Dorfgemeinschaftshaus braucht Paten', bob, [
    [bob, ago(6), 'Wer kann sich abwechselnd mit mir um den Fairteiler kümmern?'],
  ]);
  return { experiences, hiddenPost };
}
