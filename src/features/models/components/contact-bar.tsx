import { Button, Flex, Text } from '@mantine/core';
import { IconBrandWhatsapp, IconPhone } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import type { ModelDetail } from '#contract/listings.ts';
import { formatPhone, reportContactTap, telHref, whatsappHref } from '../lib/contact.ts';
import classes from './model-show.module.css';

/** WhatsApp's dark green: white text on it keeps 5:1 (the brand's light green does not reach 4.5:1). */
const WHATSAPP_GREEN = '#0a7a5f';

/** Side by side while both fit (phones included), stacked in a narrow side column. */
const BUTTON_STYLE = { flex: '1 1 9rem' };

/** The number as stored (E.164) until the formatter has loaded, then grouped for reading. */
function useFormattedPhone(phone: string | null): string {
  const [formatted, setFormatted] = useState<{ phone: string; text: string }>();
  useEffect(() => {
    if (!phone) return;
    let live = true;
    formatPhone(phone).then(
      (text) => live && setFormatted({ phone, text }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [phone]);
  if (!phone) return '';
  return formatted?.phone === phone ? formatted.text : phone;
}

/**
 * Call and WhatsApp. On phones a bar stuck to the bottom of the screen; from md a block in the side column. A tap is
 * reported for the ad's weekly numbers (calls, messages) only if the visitor accepted analytics cookies; the link
 * works the same either way.
 */
export function ContactBar({ model }: { model: ModelDetail }) {
  const { t } = useTranslation();
  const phone = model.phone;
  const display = useFormattedPhone(phone);
  const wa = phone && model.whatsapp ? whatsappHref(phone) : undefined;

  return (
    <section className={`${classes.contact} ${phone ? classes.sticky : ''}`} aria-labelledby="contact-title" data-testid="contact-bar">
      <Text component="h2" id="contact-title" fw={700} visibleFrom="md" mb={phone ? 4 : 'xs'}>
        {t('model.contact.title')}
      </Text>
      {phone ? (
        <>
          <Text size="lg" fw={600} visibleFrom="md" mb="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
            {display}
          </Text>
          <Flex gap="sm" wrap="wrap">
            <Button
              component="a"
              href={telHref(phone)}
              onClick={() => void reportContactTap(model.id, 'call')}
              style={BUTTON_STYLE}
              leftSection={<IconPhone size={18} aria-hidden />}
              aria-label={t('model.contact.callLabel', { phone: display })}
            >
              {t('model.contact.call')}
            </Button>
            {wa ? (
              <Button
                component="a"
                href={wa}
                onClick={() => void reportContactTap(model.id, 'message')}
                style={BUTTON_STYLE}
                target="_blank"
                rel="noopener noreferrer"
                color={WHATSAPP_GREEN}
                leftSection={<IconBrandWhatsapp size={18} aria-hidden />}
                aria-label={t('model.contact.whatsappLabel')}
              >
                {t('model.contact.whatsapp')}
              </Button>
            ) : null}
          </Flex>
        </>
      ) : (
        <Text size="sm" c="dimmed">
          {t('model.contact.noPhone')}
        </Text>
      )}
    </section>
  );
}
