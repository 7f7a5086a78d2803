import { Anchor, Text } from '@mantine/core';
import { Trans, useTranslation } from '#src/lib/i18n-react.tsx';

interface Props {
  /** The search as it was run, misspelt words replaced ("lucía"). */
  corrected: string;
  /** The search as the visitor typed it ("luica"). */
  typed: string;
  onLiteral: () => void;
}

/** "Resultados para «lucía»", with the way back to the words as typed, as search engines offer it. */
export function SearchCorrection({ corrected, typed, onLiteral }: Props) {
  const { t } = useTranslation();
  return (
    <Text size="sm" mb="xs" data-testid="search-correction">
      <Trans i18nKey="listings.correctedFor" values={{ query: corrected }} components={{ b: <strong /> }} />{' '}
      <Anchor component="button" type="button" size="sm" onClick={onLiteral} style={{ verticalAlign: 'baseline' }}>
        {t('listings.searchLiteral', { query: typed })}
      </Anchor>
    </Text>
  );
}
