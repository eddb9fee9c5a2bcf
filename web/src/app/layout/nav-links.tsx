import { useTranslation } from "react-i18next";
import { NavLink } from "react-router-dom";
import { cn } from "@/lib/utils";
import type { NavItem } from "./nav-items";

type NavLinksProps = {
  items: NavItem[];
  orientation: "horizontal" | "vertical";
  onNavigate?: () => void;
};

export function NavLinks({ items, orientation, onNavigate }: NavLinksProps) {
  const { t } = useTranslation();

  return (
    <ul className={cn("flex", orientation === "horizontal" ? "items-center" : "flex-col")}>
      {items.map((item) => (
        <li key={item.to}>
          <NavLink
            to={item.to}
            end
            onClick={onNavigate}
            className={({ isActive }) =>
              cn(
                "block rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none",
                orientation === "vertical" && "py-3 text-base",
                // Eight links of an admin in French fit a 1280 px header on one line.
                orientation === "horizontal" && "px-2 whitespace-nowrap 2xl:px-3",
                isActive && "text-foreground",
              )
            }
          >
            {t(item.labelKey)}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}
