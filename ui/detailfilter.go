package ui

// isFilterTab reports whether "/" filters tab t: tools, resources,
// prompts, and traffic (by method).
func isFilterTab(t detailTab) bool {
	return t == tabTools || t == tabResources || t == tabPrompts || t == tabTraffic
}

// refilter recomputes which items of the current tab match the filter,
// name matches first (filterbox.Box.Pick); shown is nil when nothing is
// filtered.
func (d *detailView) refilter() {
	d.shown = nil
	if !isFilterTab(d.tab) {
		return
	}
	d.shown = d.filter.Pick(d.itemCount(d.tab), func(i int) []string {
		title, desc := d.item(i)
		return []string{title, desc}
	})
}

// count is how many items of tab t are on offer (after the filter).
func (d *detailView) count(t detailTab) int {
	if t == d.tab && d.shown != nil {
		return len(d.shown)
	}
	return d.itemCount(t)
}

// index is the item at position pos of tab t (after the filter).
func (d *detailView) index(t detailTab, pos int) int {
	if t == d.tab && d.shown != nil && pos >= 0 && pos < len(d.shown) {
		return d.shown[pos]
	}
	return pos
}

// clearFilter drops the filter; it reports whether there was one.
func (d *detailView) clearFilter() bool {
	if !d.filter.Shown() {
		return false
	}
	d.filter.Clear()
	d.refilter()
	d.clamp()
	return true
}
