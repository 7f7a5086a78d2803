import { useEffect } from 'react';

export const PRODUCT_NAME = 'Vitrina';

/** "Page name · Vitrina" (SPEC §2: the page name followed by the product name). */
export function formatTitle(pageName?: string): string {
  return pageName ? `${pageName} · ${PRODUCT_NAME}` : PRODUCT_NAME;
}

export function usePageTitle(pageName?: string) {
  useEffect(() => {
    document.title = formatTitle(pageName);
  }, [pageName]);
}
