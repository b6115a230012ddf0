// Owned by the public-site work (issue 4): top bar, footer and every public route.
export default function PublicArea() {
  return (
    <main className="p-8">
      <h1 className="text-2xl font-bold">Poshan</h1>
    </main>
  );
}
