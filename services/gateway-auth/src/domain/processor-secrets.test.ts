import {
  liveProcessorSecrets,
  PROCESSOR_SECRET_OVERLAP_SECONDS,
  processorSettingsOf,
  rotatedProcessorSecrets,
} from './processor-secrets';

const NOW = new Date('2026-01-01T00:00:00Z');
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

describe('processor secrets', () => {
  it('a first rotation has nothing to overlap with', () => {
    expect(rotatedProcessorSecrets(null, 'new', NOW)).toEqual({
      currentSealed: 'new',
      rotatedAt: NOW,
      previousSealed: null,
      previousValidUntil: null,
    });
  });

  it('a later rotation keeps the replaced secret for the overlap, then only the current one verifies', () => {
    const first = rotatedProcessorSecrets(null, 'old', NOW);
    const second = rotatedProcessorSecrets(first, 'new', NOW);
    expect(second.previousSealed).toBe('old');
    expect(second.previousValidUntil).toEqual(later(PROCESSOR_SECRET_OVERLAP_SECONDS));
    expect(liveProcessorSecrets(second, NOW)).toEqual(['new', 'old']);
    expect(liveProcessorSecrets(second, later(PROCESSOR_SECRET_OVERLAP_SECONDS))).toEqual(['new']);
  });

  it('the settings show the overlap only while it lasts, and where notifications go', () => {
    const secrets = rotatedProcessorSecrets(rotatedProcessorSecrets(null, 'old', NOW), 'new', NOW);
    const at = { now: NOW, publicBaseUrl: 'https://marketplace.example' };
    expect(processorSettingsOf('t-1', secrets, at)).toEqual({
      configured: true,
      notificationUrl: 'https://marketplace.example/api/payments/v1/tenants/t-1/notifications',
      rotatedAt: NOW,
      previousValidUntil: later(PROCESSOR_SECRET_OVERLAP_SECONDS),
    });
    const afterwards = { ...at, now: later(PROCESSOR_SECRET_OVERLAP_SECONDS + 1) };
    expect(processorSettingsOf('t-1', secrets, afterwards).previousValidUntil).toBeNull();
    expect(processorSettingsOf('t-1', null, at)).toMatchObject({ configured: false, rotatedAt: null });
  });
});
