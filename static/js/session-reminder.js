/**
 * The session-length reminder on a page opened before it was due (an open table, say): the
 * server says in how many seconds it falls due (`data-due-in`); it shows then, without a reload.
 * @module session-reminder
 */
const box = document.getElementById("session-reminder");
if (box && box.hidden && box.dataset.dueIn) {
  setTimeout(() => {
    const text = box.textContent;
    box.textContent = "";
    box.hidden = false;
    box.textContent = text; // a new text in the status region: screen readers say it
  }, Number(box.dataset.dueIn) * 1000);
}
