/**
 * The Mantine implementation of the response handler's Presenter (notifications, modals, navigation). The
 * notification/modal layer itself is loaded on first use (overlays.tsx), so showing something is asynchronous:
 * the calls return at once and the notice or modal appears when the layer is ready (immediately after the first
 * time).
 */
import { useMemo } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { useNavigate, useParams } from '#src/lib/router.tsx';
import { loadOverlays } from './overlays.tsx';
import type { ModalSpec, Notice, Presenter } from './response-handler.ts';

export function showNotice(notice: Notice) {
  void loadOverlays().then((ui) => ui.showNoticeNow(notice));
}

export function showModal(spec: ModalSpec) {
  void loadOverlays().then((ui) => ui.showModalNow(spec));
}

export function usePresenter(): Presenter {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { lng } = useParams();
  return useMemo(
    () => ({
      t: (key: string) => t(key),
      notify: showNotice,
      openModal: showModal,
      // Server routes are language-neutral ("/login"); the PWA prefixes the current language.
      navigate: (to: string) => navigate(to.startsWith('/') && lng && !to.startsWith(`/${lng}/`) ? `/${lng}${to}` : to),
    }),
    [t, navigate, lng],
  );
}
