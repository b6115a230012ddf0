// Owned by the dietitian console work (issue 5): admin sign-in, shell and screens.
export default function AdminArea() {
  return (
    <main className="p-8">
      <h1 className="text-2xl font-bold">Dietitian console</h1>
    </main>
  );
}
