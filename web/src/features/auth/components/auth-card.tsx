import { ActivityIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from "@/components/ui/card";

type AuthCardProps = {
  title: string;
  subtitle: string;
  children: ReactNode;
  footer: ReactNode;
};

/** The centred card around the login and register forms. */
export function AuthCard({ title, subtitle, children, footer }: AuthCardProps) {
  return (
    <section className="flex flex-1 items-center justify-center bg-gradient-to-b from-primary/10 via-background to-background px-4 py-12 sm:py-20">
      <Card className="w-full max-w-md">
        <CardHeader className="justify-items-center text-center">
          <span className="mb-2 flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            <ActivityIcon className="size-6" aria-hidden="true" />
          </span>
          <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
          <CardDescription>{subtitle}</CardDescription>
        </CardHeader>
        <CardContent>{children}</CardContent>
        <CardFooter className="justify-center text-sm text-muted-foreground">{footer}</CardFooter>
      </Card>
    </section>
  );
}
