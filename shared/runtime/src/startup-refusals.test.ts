import { KafkaJSConnectionError, KafkaJSNumberOfRetriesExceeded, KafkaJSSASLAuthenticationError } from 'kafkajs';
import { isStartupRace, refusalOf } from './startup-refusals';

describe('refusalOf: what waiting will not mend', () => {
  it('is a SASL refusal, also inside the retrier kafkajs wraps it in', () => {
    // kafkajs's typings declare no arguments; the class takes its message as its other errors do.
    const SaslError = KafkaJSSASLAuthenticationError as unknown as new (message: string) => Error;
    const sasl = new SaslError('SASL SCRAM SHA512 authentication failed: invalid credentials');
    expect(refusalOf(sasl)).toBe('it refused the credentials (SASL authentication failed)');
    expect(refusalOf(new KafkaJSNumberOfRetriesExceeded(sasl, { retryCount: 3, retryTime: 100 }))).toBe(
      'it refused the credentials (SASL authentication failed)',
    );
  });

  it('is a certificate the client does not trust, by its code or its message', () => {
    const tls = Object.assign(new Error('self-signed certificate in certificate chain'), {
      code: 'SELF_SIGNED_CERT_IN_CHAIN',
    });
    expect(refusalOf(tls)).toBe('its certificate is not trusted (SELF_SIGNED_CERT_IN_CHAIN)');
    expect(
      refusalOf(new KafkaJSConnectionError('Connection error: self-signed certificate in certificate chain')),
    ).toBe('its certificate is not trusted (self-signed or unknown issuer)');
  });

  it('is Redis refusing an ACL user, MongoDB refusing a login, a registry answering 401 or 403', () => {
    expect(refusalOf(new Error('WRONGPASS invalid username-password pair or user is disabled.'))).toBe(
      'it refused the credentials (WRONGPASS)',
    );
    expect(refusalOf(Object.assign(new Error('Authentication failed.'), { name: 'MongoServerError', code: 18 }))).toBe(
      'it refused the credentials (AuthenticationFailed)',
    );
    expect(refusalOf(Object.assign(new Error('Unauthorized'), { status: 401 }))).toBe(
      'it refused the credentials (HTTP 401)',
    );
    expect(refusalOf(new Error('schema registry answered 403'))).toBe('it refused the credentials (HTTP 403)');
  });

  it('is nothing for a component that is not up yet: start-up keeps waiting for it', () => {
    expect(refusalOf(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:19092'), { code: 'ECONNREFUSED' }))).toBe(
      undefined,
    );
    expect(refusalOf(new KafkaJSConnectionError('Connection timeout'))).toBe(undefined);
    expect(refusalOf(new Error('schema registry answered 503'))).toBe(undefined);
    expect(refusalOf(undefined)).toBe(undefined);
  });
});

describe('isStartupRace: what every start meets and its retry mends', () => {
  it('is two services creating the same topics or subjects, a coordinator or leader still being chosen', () => {
    expect(isStartupRace(new Error('Topic creation errors'))).toBe(true);
    expect(isStartupRace(new Error('This server does not host this topic-partition'))).toBe(true);
    expect(isStartupRace(new Error('The group coordinator is not available'))).toBe(true);
    expect(isStartupRace(new Error('Compatibility does not match the configuration (BACKWARD != NONE)'))).toBe(true);
  });

  it('is not a component that is down, nor a refusal: those stay warnings', () => {
    expect(isStartupRace(new Error('connect ECONNREFUSED 127.0.0.1:19092'))).toBe(false);
    expect(isStartupRace(new Error('WRONGPASS invalid username-password pair'))).toBe(false);
  });
});
