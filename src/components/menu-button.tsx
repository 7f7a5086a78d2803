/**
 * A menu button (WAI-ARIA "menu button" pattern) for the header: the language switcher and the account menu.
 * Mantine's Menu would bring Popover and floating-ui into every page for two dropdowns that always hang below
 * the end of their button; this draws the same menu (menu-button.module.css) with plain positioning.
 *
 * Keyboard: Enter, Space or ArrowDown on the button open the menu on its first item, ArrowUp on its last;
 * ArrowUp/ArrowDown move (wrapping), Home/End jump, a letter moves to the next item starting with it, Escape
 * closes and gives the focus back to the button, Tab closes and moves on. A pointer opens the menu with the
 * focus on the menu itself (as Mantine does); a click outside closes it. Choosing an item closes the menu and
 * gives the focus back to the button.
 */
import { Box, UnstyledButton } from '@mantine/core';
import {
  createContext,
  use,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type Ref,
} from 'react';
import { Link } from '#src/lib/router.tsx';
import classes from './menu-button.module.css';

export interface MenuTriggerProps {
  ref: Ref<HTMLButtonElement>;
  id: string;
  'aria-haspopup': 'menu';
  'aria-expanded': boolean;
  'aria-controls': string | undefined;
  onClick: (event: MouseEvent<HTMLButtonElement>) => void;
  onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => void;
}

type Focus = 'first' | 'last' | 'menu';

const MenuContext = createContext<{ close: (refocus: boolean) => void } | null>(null);

const ITEM = '[role="menuitem"]:not([disabled]):not([data-disabled])';

function itemsOf(menu: HTMLElement | null): HTMLElement[] {
  return menu ? Array.from(menu.querySelectorAll<HTMLElement>(ITEM)) : [];
}

export function MenuButton({ trigger, children }: { trigger: (props: MenuTriggerProps) => ReactNode; children: ReactNode }) {
  const baseId = useId();
  const triggerId = `${baseId}-button`;
  const menuId = `${baseId}-menu`;
  const [open, setOpen] = useState<Focus | false>(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  const close = useCallback((refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  }, []);

  // Where the focus goes when the menu opens.
  useEffect(() => {
    if (!open) return;
    const items = itemsOf(menuRef.current);
    const target = open === 'first' ? items[0] : open === 'last' ? items.at(-1) : menuRef.current;
    (target ?? menuRef.current)?.focus();
  }, [open]);

  // A press outside the menu and its button closes it, leaving the focus where the press put it.
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    return () => document.removeEventListener('pointerdown', onPointerDown, true);
  }, [open]);

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = itemsOf(menuRef.current);
    const index = items.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      event.preventDefault();
      items[(to + items.length) % items.length]?.focus();
    };
    switch (event.key) {
      case 'ArrowDown':
        return move(index + 1);
      case 'ArrowUp':
        return move(index < 0 ? -1 : index - 1);
      case 'Home':
        return move(0);
      case 'End':
        return move(-1);
      case 'Escape':
        event.preventDefault();
        event.stopPropagation();
        return close(true);
      case 'Tab':
        return setOpen(false);
      default: {
        // Type-ahead: the next item whose text starts with the letter typed.
        if (event.key.length !== 1 || event.altKey || event.ctrlKey || event.metaKey || event.key === ' ') return;
        const letter = event.key.toLocaleLowerCase();
        const order = [...items.slice(index + 1), ...items.slice(0, index + 1)];
        const next = order.find((item) => item.textContent?.trim().toLocaleLowerCase().startsWith(letter));
        if (next) {
          event.preventDefault();
          next.focus();
        }
      }
    }
  };

  return (
    <div
      ref={rootRef}
      className={classes.root}
      onBlur={(event) => {
        // The focus left for something else on the page (not a click outside, handled above).
        if (open && event.relatedTarget && !rootRef.current?.contains(event.relatedTarget)) setOpen(false);
      }}
    >
      {trigger({
        ref: buttonRef,
        id: triggerId,
        'aria-haspopup': 'menu',
        'aria-expanded': !!open,
        'aria-controls': open ? menuId : undefined,
        // A keyboard "click" (Enter, Space) has no pointer position: detail is 0.
        onClick: (event) => setOpen((was) => (was ? false : event.detail === 0 ? 'first' : 'menu')),
        onKeyDown: (event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            setOpen(event.key === 'ArrowDown' ? 'first' : 'last');
          } else if (event.key === 'Escape' && open) {
            event.preventDefault();
            close(true);
          }
        },
      })}
      {open ? (
        <MenuContext value={{ close }}>
          <div
            ref={menuRef}
            id={menuId}
            role="menu"
            aria-orientation="vertical"
            aria-labelledby={triggerId}
            tabIndex={-1}
            className={classes.dropdown}
            onKeyDown={onMenuKeyDown}
          >
            {children}
          </div>
        </MenuContext>
      ) : null}
    </div>
  );
}

interface MenuItemProps {
  children: ReactNode;
  leftSection?: ReactNode;
  /** `red` for destructive actions, as Mantine's Menu.Item color. */
  color?: 'red';
  /** A link to this path; otherwise a button. */
  to?: string;
  onClick?: () => void;
  lang?: string;
  'aria-current'?: 'true';
  style?: CSSProperties;
}

export function MenuItem({ children, leftSection, color, to, onClick, style, ...rest }: MenuItemProps) {
  const ctx = use(MenuContext);
  const content = (
    <>
      {leftSection ? (
        <span className={classes.itemSection} data-position="left">
          {leftSection}
        </span>
      ) : null}
      <span className={classes.itemLabel}>{children}</span>
    </>
  );
  const common = {
    role: 'menuitem',
    tabIndex: -1,
    className: classes.item,
    'data-color': color,
    style,
    onClick: () => {
      onClick?.();
      ctx?.close(true);
    },
    ...rest,
  };
  return to ? (
    <UnstyledButton component={Link} to={to} {...common}>
      {content}
    </UnstyledButton>
  ) : (
    <UnstyledButton type="button" {...common}>
      {content}
    </UnstyledButton>
  );
}

export function MenuLabel({ children }: { children: ReactNode }) {
  return <Box className={classes.label}>{children}</Box>;
}

export function MenuDivider() {
  return <hr className={classes.divider} />;
}
