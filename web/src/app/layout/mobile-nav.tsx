import type { User } from "@supabase/supabase-js";
import { MenuIcon } from "lucide-react";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button";
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetHeader,
  SheetTitle,
  SheetTrigger,
} from "@/components/ui/sheet";
import { AccountActions } from "./account-actions";
import type { NavItem } from "./nav-items";
import { NavLinks } from "./nav-links";

type MobileNavProps = {
  items: NavItem[];
  user: User | null;
  isAdmin: boolean;
  isSigningOut: boolean;
  onSignOut: () => void;
  /** More rows under the links (e.g. the admins' ticket desk); `close` closes the sheet. */
  extra?: (close: () => void) => ReactNode;
};

/** The header's links in a slide-in sheet for small screens; choosing a link closes it. */
export function MobileNav({
  items,
  user,
  isAdmin,
  isSigningOut,
  onSignOut,
  extra,
}: MobileNavProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);

  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>
        <Button variant="ghost" size="icon" className="xl:hidden" aria-label={t("header.openMenu")}>
          <MenuIcon aria-hidden="true" />
        </Button>
      </SheetTrigger>
      <SheetContent side="right" closeLabel={t("header.closeMenu")} className="overflow-y-auto">
        <SheetHeader>
          <SheetTitle>{t("header.menuTitle")}</SheetTitle>
          <SheetDescription className="sr-only">{t("header.menuDescription")}</SheetDescription>
        </SheetHeader>
        <nav aria-label={t("header.mainNavigation")} className="px-2">
          <NavLinks items={items} orientation="vertical" onNavigate={close} />
          {extra?.(close)}
        </nav>
        <div className="mt-auto border-t p-4">
          <AccountActions
            user={user}
            isAdmin={isAdmin}
            orientation="vertical"
            isSigningOut={isSigningOut}
            onSignOut={onSignOut}
            onNavigate={close}
          />
        </div>
      </SheetContent>
    </Sheet>
  );
}
