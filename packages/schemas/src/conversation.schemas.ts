import { type Static, Type } from 'typebox';
import { DateTime, Id } from './common.schemas.ts';

export const MESSAGE_BODY_MAX_LENGTH = 10_000;

export const MessageBodySchema = Type.Object(
  {
    // At least one non-space character: a blank message is refused, whatever its length.
    body: Type.String({ minLength: 1, maxLength: MESSAGE_BODY_MAX_LENGTH, pattern: '\\S' }),
    clientKey: Type.Optional(
      Type.String({
        pattern: '^[0-9a-f]{12}$',
        description:
          'Makes the send idempotent per conversation and sender: a retry returns the stored message',
      }),
    ),
  },
  { title: 'MessageBody', additionalProperties: false },
);
export type MessageBody = Static<typeof MessageBodySchema>;

export const MessageSchema = Type.Object(
  { id: Id(), body: Type.String(), sentAt: DateTime(), authorId: Id() },
  { title: 'Message' },
);
export type Message = Static<typeof MessageSchema>;
