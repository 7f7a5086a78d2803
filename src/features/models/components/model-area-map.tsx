/**
 * The model page's area map (issue 16 point 1): the ad's city as an area of about 2 km around the city's centre
 * (the coordinates the server sends are the city's, rounded), with the city and province named beside it — never a
 * precise point. The map's code loads only when its place scrolls into view; its height is reserved meanwhile, so
 * the page does not move and its first paint does not wait for it.
 */
import { Group, Stack, Text, Title } from '@mantine/core';
import { useInViewport } from '@mantine/hooks';
import { IconMapPin } from '@tabler/icons-react';
import { Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { LazyMap, MapFallback, type MapArea } from '#src/components/map/index.ts';

export const AREA_RADIUS_METERS = 2000;
const MAP_HEIGHT = 240;

export interface ModelAreaMapProps {
  city: { name: string; latitude: number | null; longitude: number | null };
  state: string;
}

export function ModelAreaMap({ city, state }: ModelAreaMapProps) {
  const { t } = useTranslation();
  const { ref, inViewport } = useInViewport();
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    if (inViewport) setSeen(true);
  }, [inViewport]);
  const { latitude, longitude } = city;
  const area = useMemo<MapArea | undefined>(
    () =>
      latitude === null || longitude === null
        ? undefined
        : {
            lat: latitude,
            lng: longitude,
            radiusMeters: AREA_RADIUS_METERS,
            label: t('model.area.circle', { city: city.name }),
            name: city.name,
          },
    [latitude, longitude, city.name, t],
  );
  if (!area) return null;
  const place = [city.name, state].filter(Boolean).join(', ');

  return (
    <section aria-labelledby="model-area-title" data-testid="model-area">
      <Stack gap={6} mb="xs">
        <Title order={2} size="h4" id="model-area-title">
          {t('model.area.title')}
        </Title>
        <Group gap={4} wrap="nowrap">
          <IconMapPin size={18} aria-hidden />
          <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
            {place}
          </Text>
        </Group>
        <Text size="sm" c="dimmed">
          {t('model.area.note', { city: city.name })}
        </Text>
      </Stack>
      <div ref={ref} style={{ height: MAP_HEIGHT }}>
        {seen ? (
          <Suspense fallback={<MapFallback height={MAP_HEIGHT} />}>
            <LazyMap
              ariaLabel={t('model.area.mapLabel', { city: city.name })}
              center={[area.lat, area.lng]}
              // Wide enough that the province's outline around the city usually shows (at 10 the map was one even
              // square of land), close enough that the 2 km area still reads as an area.
              zoom={9}
              maxZoom={13}
              area={area}
              height={MAP_HEIGHT}
            />
          </Suspense>
        ) : (
          <MapFallback height={MAP_HEIGHT} />
        )}
      </div>
    </section>
  );
}
