import { Alert, Container, List, Skeleton, Stack, Text, Title, Typography } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { useParams } from '#src/lib/router.tsx';
import { isLanguage } from '#contract/languages.ts';
import { formatDate } from '#src/lib/format.ts';
import { usePageTitle } from '#src/lib/page-title.ts';
import { NotFoundPage } from '#src/components/not-found.tsx';
import { isLegalSlug, LEGAL_TITLE_KEYS, loadLegalDocument } from '../legal-documents.ts';

/** Cookies policy, privacy policy, terms and conditions, and terms to post, in the page's language. */
export function LegalPageRoute() {
  const { page } = useParams();
  const { t, i18n } = useTranslation();
  const lng = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'es';
  const slug = isLegalSlug(page) ? page : undefined;
  const doc = useQuery({
    queryKey: ['legal', slug, lng],
    queryFn: () => loadLegalDocument(slug!, lng),
    enabled: !!slug,
    staleTime: Infinity,
  });
  // The tab and the heading say the same: the document's own title once it is there (the shorter link label until then).
  usePageTitle(slug ? (doc.data?.title ?? t(LEGAL_TITLE_KEYS[slug])) : t('pages.notFound'));
  if (!slug) return <NotFoundPage />;

  return (
    <Container size="md" py="lg">
      {doc.isPending ? (
        <Stack aria-busy="true">
          <Skeleton h={36} w="60%" />
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} h={14} />
          ))}
        </Stack>
      ) : doc.isError ? (
        <Alert color="red">{t('legal.loadError')}</Alert>
      ) : (
        <article>
          <Typography>
            <Title order={1}>{doc.data.title}</Title>
            <Text size="sm" c="dimmed">
              {t('legal.updated', { date: formatDate(doc.data.updated, lng) })}
            </Text>
            <p>{doc.data.intro}</p>
            {doc.data.sections.map((section) => (
              <section key={section.heading}>
                <Title order={2} size="h3" mt="xl">
                  {section.heading}
                </Title>
                {section.paragraphs.map((p, i) => (
                  <p key={i}>{p}</p>
                ))}
                {section.items?.length ? (
                  <List>
                    {section.items.map((item, i) => (
                      <List.Item key={i}>{item}</List.Item>
                    ))}
                  </List>
                ) : null}
              </section>
            ))}
          </Typography>
        </article>
      )}
    </Container>
  );
}
