// Owned by the dashboard work (issue 3): the shell and its nested routes.
export default function DashboardArea() {
  return (
    <main className="p-8">
      <h1 className="text-2xl font-bold">Dashboard</h1>
    </main>
  );
}
