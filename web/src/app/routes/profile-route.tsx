import { BlockedUsersCard } from "@/features/community/components/blocked-users-card";
import { ProfilePage } from "@/features/profile/components/profile-page";

/** /profile: the profile feature's page, then the community's blocked users (lifted there). */
export function ProfileRoute() {
  return (
    <>
      <ProfilePage />
      <div className="container mx-auto w-full max-w-3xl px-4 pb-8">
        <BlockedUsersCard />
      </div>
    </>
  );
}
